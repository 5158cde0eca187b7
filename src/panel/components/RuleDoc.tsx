// Panel: a rule's explanation: title, summary and its bundled doc page rendered as text-only Markdown.
import { Markdown } from '../markdown/Markdown';
import { resolveDocLink, ruleCodeLink, ruleDocBody, ruleDocHref, ruleMeta } from '../rules';

export function RuleDoc({ id, page = false }: { id: string; page?: boolean }) {
  const meta = ruleMeta(id);
  const doc = ruleDocBody(id);
  return (
    <div class="rule-doc">
      {page ? <h1 class="mono rule-page-title">{id}</h1> : null}
      {meta ? (
        <p class="rule-summary">
          <strong>{meta.title}.</strong> {meta.summary}
        </p>
      ) : (
        <p class="rule-summary">Unknown rule {id}: this build has no documentation for it.</p>
      )}
      {!page && doc !== undefined ? (
        <p>
          <a href={ruleDocHref(id)} target="_blank" rel="noopener" class="rule-link" data-testid="rule-doc-link">
            Open the {id} doc page ↗
          </a>
        </p>
      ) : null}
      {doc !== undefined ? (
        <Markdown
          source={doc}
          resolveLink={resolveDocLink}
          linkCode={(code) => (code === id ? undefined : ruleCodeLink(code))}
        />
      ) : null}
    </div>
  );
}

/** The panel page opened with ?rule=<id>: the doc page on its own. */
export function RuleDocPage({ id }: { id: string }) {
  return (
    <main class="rule-page">
      <RuleDoc id={id} page />
    </main>
  );
}
