// Panel: what an empty panel says, and what to do about it.

export function EmptyState({ live }: { live: boolean }) {
  return (
    <div class="empty-state" data-testid="empty-state">
      <p class="empty-main">Open a page that talks MCP over Streamable HTTP; reload to capture from the start.</p>
      <p class="dim">
        {live
          ? 'Or import a capture, a HAR file or a saved event stream: use Import or drop a file here.'
          : 'No extension here: import a capture, a HAR file or a saved event stream (Import, or drop a file here).'}
      </p>
    </div>
  );
}
