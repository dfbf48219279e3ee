/**
 * The signed-in account as the API client needs it: its token and the account server chosen in
 * settings. The client is a primitive below the stores (docs/architecture.md, "Layers"), so it does not
 * read the account store: the store hands these readers over when it is created (stores/account-store.ts).
 * Until then — or with no store at all, in tests of the client alone — they answer as signed out.
 */
export interface ApiCredentials {
  /** The signed-in account's bearer token; null when signed out. */
  token(): string | null;
  /** The account server chosen in settings; null = this instance. */
  backendUrl(): string | null;
  /** This device's live unlock token of a PIN-locked profile ('' = the account's own); null: none. */
  profileToken(profileId: string): string | null;
  /** The server refused a profile as locked (its unlock ended, or its PIN changed elsewhere). */
  profileLocked(profileId: string): void;
  /** The kids' profile in use on this device (decision 106); null when the profile in use is not one. */
  kidsProfile(): string | null;
}

const signedOut: ApiCredentials = {
  token: () => null,
  backendUrl: () => null,
  profileToken: () => null,
  profileLocked: () => undefined,
  kidsProfile: () => null,
};
let current = signedOut;

/** Called by the account store, once, as it is created. */
export function provideApiCredentials(credentials: ApiCredentials): void {
  current = credentials;
}

export const apiCredentials = (): ApiCredentials => current;
