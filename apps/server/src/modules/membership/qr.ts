/** URI schemes wallets understand for a plain address plus amount (BIP-21 and its relatives). */
const schemes: Record<string, { scheme: string; amountParam: string }> = {
  BTC: { scheme: 'bitcoin', amountParam: 'amount' },
  LTC: { scheme: 'litecoin', amountParam: 'amount' },
  DOGE: { scheme: 'dogecoin', amountParam: 'amount' },
  XMR: { scheme: 'monero', amountParam: 'tx_amount' },
};

/** What the QR code holds: the gateway's payment URI, a wallet URI with the amount, or the bare address. */
export function paymentUri(
  crypto: string,
  wallet: string,
  cryptoAmount: string | null,
  gatewayUri: string | null,
): string {
  if (gatewayUri) return gatewayUri;
  const known = schemes[crypto.toUpperCase()];
  if (!known) return wallet;
  return cryptoAmount
    ? `${known.scheme}:${wallet}?${known.amountParam}=${encodeURIComponent(cryptoAmount)}`
    : `${known.scheme}:${wallet}`;
}

/** A PNG QR code as a data URL, made here (no image service is contacted). */
export async function qrDataUrl(text: string): Promise<string> {
  // Loaded on the first payment, not at start: most processes never draw a QR code.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
}
