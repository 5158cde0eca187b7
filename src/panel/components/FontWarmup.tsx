// Panel: lays out, unseen, one line in each font the workspace uses, while the panel is still empty. Measured in
// Chromium 156: the first layout with data looked every one of them up (family matching and render styles over
// IPC, about 50 ms of a 110 ms layout), inside the task that first drew the data; now that happens at panel open.

/** Classes of panel.css whose fonts (family, size, weight, style) the workspace draws. */
const FONTS = [
  'fw-sans-10',
  'fw-sans-11',
  'fw-sans-12',
  'fw-sans-12 fw-500',
  'fw-sans-12 fw-600',
  'fw-sans-12 fw-italic',
  'fw-mono-10',
  'fw-mono-11',
] as const;

/** Letters, digits and every symbol the panel draws (a glyph missing from the first font is a fallback lookup). */
const SAMPLE = 'Aa 0123456789 {}[]:,_/ … · – — − → ↗ ↻ ▾ ▸ ✓ é';

export function FontWarmup() {
  return (
    <div class="font-warmup" aria-hidden="true">
      {FONTS.map((font) => (
        <span key={font} class={font}>
          {SAMPLE}
        </span>
      ))}
    </div>
  );
}
