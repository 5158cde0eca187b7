// Panel: the few 16px icons the panel uses, drawn inline so they follow the text colour and theme.
import type { Severity } from '../../core/guard/types';

type IconName = 'record' | 'clear' | 'upload' | 'download' | 'zoom-in' | 'zoom-out' | 'fit' | 'close';

const paths: Record<IconName, string> = {
  record: 'M8 3.5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9Z',
  clear:
    'M8 2.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11Zm0 1.5a4 4 0 0 1 3.2 6.4L5.6 4.8A4 4 0 0 1 8 4Zm-3.2 1.6 5.6 5.6A4 4 0 0 1 4.8 5.6Z',
  upload: 'M7.25 11V4.9L5 7.1 4 6.1 8 2l4 4.1-1 1L8.75 4.9V11h-1.5ZM3 12.5h10V14H3v-1.5Z',
  download: 'M7.25 2v6.1L5 5.9 4 6.9 8 11l4-4.1-1-1-2.25 2.2V2h-1.5ZM3 12.5h10V14H3v-1.5Z',
  'zoom-in': 'M7.25 4v3.25H4v1.5h3.25V12h1.5V8.75H12v-1.5H8.75V4h-1.5Z',
  'zoom-out': 'M4 7.25h8v1.5H4v-1.5Z',
  fit: 'M2 3h1.5v10H2V3Zm10.5 0H14v10h-1.5V3ZM5 7.25h6v1.5H5v-1.5Z',
  close: 'M4.5 3.4 8 6.9l3.5-3.5 1.1 1.1L9.1 8l3.5 3.5-1.1 1.1L8 9.1l-3.5 3.5-1.1-1.1L6.9 8 3.4 4.5l1.1-1.1Z',
};

export function Icon({ name, class: className }: { name: IconName; class?: string }) {
  return (
    <svg class={`icon ${className ?? ''}`} width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <path d={paths[name]} fill="currentColor" fill-rule="evenodd" />
    </svg>
  );
}

/** Error: red disc with a cross; warning: amber triangle with a bang; info: blue disc with an i (as in the Console). */
export function SeverityIcon({ severity, title }: { severity: Severity; title?: string }) {
  return (
    <svg
      class={`sev-icon sev-${severity}`}
      width="12"
      height="12"
      viewBox="0 0 12 12"
      role="img"
      aria-label={title ?? severity}
    >
      {title ? <title>{title}</title> : null}
      {severity === 'warning' ? (
        <>
          <path d="M6 .8 11.6 11H.4L6 .8Z" class="sev-fill" />
          <path d="M5.3 4h1.4l-.2 3.8h-1L5.3 4Zm.7 4.6a.75.75 0 1 1 0 1.5.75.75 0 0 1 0-1.5Z" class="sev-glyph" />
        </>
      ) : (
        <>
          <circle cx="6" cy="6" r="5.5" class="sev-fill" />
          {severity === 'error' ? (
            <path
              d="m3.9 3.2 2.1 2.1 2.1-2.1.7.7L6.7 6l2.1 2.1-.7.7L6 6.7 3.9 8.8l-.7-.7L5.3 6 3.2 3.9l.7-.7Z"
              class="sev-glyph"
            />
          ) : (
            <path d="M5.3 5h1.4v4H5.3V5Zm.7-2.3a.8.8 0 1 1 0 1.6.8.8 0 0 1 0-1.6Z" class="sev-glyph" />
          )}
        </>
      )}
    </svg>
  );
}
