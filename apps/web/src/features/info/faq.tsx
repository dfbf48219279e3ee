/** An accordion of questions and answers, built on <details> (keyboard and screen-reader ready). */
export function Faq({ items }: { items: readonly { question: string; answer: string }[] }) {
  return (
    <div className="mt-4 flex flex-col gap-3" data-testid="faq">
      {items.map(({ question, answer }) => (
        <details key={question} className="group rounded-lg bg-surface-2 px-4 py-3">
          <summary className="cursor-pointer list-none font-semibold text-fg marker:hidden">
            <span className="me-2 inline-block transition-transform group-open:rotate-90 rtl:rotate-180">
              ›
            </span>
            {question}
          </summary>
          <p className="mt-2 leading-relaxed text-fg-muted">{answer}</p>
        </details>
      ))}
    </div>
  );
}
