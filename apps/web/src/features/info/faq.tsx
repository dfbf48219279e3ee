import { useTranslation } from 'react-i18next';

/** An accordion of catalog entries `{prefix}.q1…qN` / `a1…aN`, built on <details> (keyboard and screen-reader ready). */
export function Faq({ prefix, count }: { prefix: string; count: number }) {
  const { t } = useTranslation();
  return (
    <div className="mt-4 flex flex-col gap-3" data-testid="faq">
      {Array.from({ length: count }, (_, i) => (
        <details key={i} className="group rounded-lg bg-surface-2 px-4 py-3">
          <summary className="cursor-pointer list-none font-semibold text-fg marker:hidden">
            <span className="me-2 inline-block transition-transform group-open:rotate-90 rtl:rotate-180">
              ›
            </span>
            {t(`${prefix}.q${i + 1}`)}
          </summary>
          <p className="mt-2 leading-relaxed text-fg-muted">{t(`${prefix}.a${i + 1}`)}</p>
        </details>
      ))}
    </div>
  );
}
