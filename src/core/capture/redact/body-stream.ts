// Runs anywhere (pure core): a body masked piece by piece as it arrives, each mask reported where it falls. The
// capture's redaction runs it over a record's chunks; the CLI runs it over a raw file's pieces while it reads them,
// so the file is not read once more only to be masked, and a file-backed chunk keeps its masks as small patches
// instead of a masked copy of itself.
import { concatBytes } from '../bytes';
import type { MaskedSpan } from './body';

const LF = 0x0a;
const BACKSLASH = 0x5c;

/** Masks a part of a body that starts where maskJsonSecrets may start afresh; the spans it masked. */
export type PartMask = (bytes: Uint8Array, spans: MaskedSpan[]) => Uint8Array;

/**
 * Called for each masked value: `bytes` (a copy, the mask) replace those at `from` of the piece pushed as `piece`.
 * A value cut by piece boundaries is reported once per piece it touches.
 */
export type OnMasked<P> = (piece: P, from: number, bytes: Uint8Array) => void;

/**
 * The body's masks, piece by piece. maskJsonSecrets starts afresh after a line feed that no backslash escapes (a
 * string it reads ends at a line break unless the byte before escapes it), so each piece's lines are masked between
 * such line feeds, and only a line cut by piece boundaries is held (as views of its pieces) until it ends: memory
 * is bounded by the longest line, never the body.
 */
export class BodyMasker<P> {
  /** The line cut by piece boundaries so far: each part's piece, where it starts there, and its bytes. */
  private cut: { piece: P; from: number; bytes: Uint8Array }[] = [];

  /**
   * @param mayMask when given, whether a part of a line may hold what `mask` masks, whatever lies around the part
   * (conservative at its ends): a cut line none of whose parts may is not joined to be masked.
   */
  constructor(
    private readonly mask: PartMask,
    private readonly onMasked: OnMasked<P>,
    private readonly mayMask?: (part: Uint8Array) => boolean,
  ) {}

  /** The next piece of the body. Its bytes must not change until the line that ends in it has been masked. */
  push(piece: P, bytes: Uint8Array): void {
    const first = lineEnd(bytes, 1, 1);
    if (first === -1) {
      if (bytes.length > 0) this.cut.push({ piece, from: 0, bytes });
      return;
    }
    this.cut.push({ piece, from: 0, bytes: bytes.subarray(0, first + 1) });
    this.maskCut();
    const last = lineEnd(bytes, bytes.length - 1, -1);
    if (last > first) this.maskPart(piece, first + 1, bytes.subarray(first + 1, last + 1));
    if (last + 1 < bytes.length) this.cut.push({ piece, from: last + 1, bytes: bytes.subarray(last + 1) });
  }

  /** The first piece a held line touches (its masks may still come), or undefined: all pushed are final. */
  get firstHeld(): P | undefined {
    return this.cut[0]?.piece;
  }

  /** The body ended: its last line is masked as it is. */
  end(): void {
    this.maskCut();
  }

  private maskPart(piece: P, from: number, part: Uint8Array): void {
    const spans: MaskedSpan[] = [];
    const masked = this.mask(part, spans);
    if (masked !== part)
      for (const span of spans) this.onMasked(piece, from + span.from, masked.slice(span.from, span.to));
  }

  private maskCut(): void {
    const cut = this.cut;
    this.cut = [];
    if (cut.length === 1) {
      const [only] = cut as [{ piece: P; from: number; bytes: Uint8Array }];
      this.maskPart(only.piece, only.from, only.bytes);
      return;
    }
    if (cut.length === 0) return;
    // Joining a 1 MiB line to learn that it holds nothing to mask was a tenth of the CLI on a stream of 1 MiB events.
    if (this.mayMask && !cut.some((part) => this.mayMask?.(part.bytes))) return;
    const whole = concatBytes(cut.map((part) => part.bytes));
    const spans: MaskedSpan[] = [];
    const masked = this.mask(whole, spans);
    if (masked === whole) return;
    // Each span laid over the parts it covers, in the parts' own positions.
    let at = 0;
    for (const part of cut) {
      const partEnd = at + part.bytes.length;
      for (const span of spans) {
        const from = Math.max(span.from, at);
        const to = Math.min(span.to, partEnd);
        if (from < to) this.onMasked(part.piece, part.from + from - at, masked.slice(from, to));
      }
      at = partEnd;
    }
  }
}

/**
 * The first (step 1) or last (step -1) line feed from `from` on whose byte before is in the piece and no backslash,
 * or -1: after such a line feed maskJsonSecrets reads as if the body started there.
 */
function lineEnd(bytes: Uint8Array, from: number, step: 1 | -1): number {
  let at = step === 1 ? bytes.indexOf(LF, from) : bytes.lastIndexOf(LF, from);
  while (at >= 1 && bytes[at - 1] === BACKSLASH)
    at = step === 1 ? bytes.indexOf(LF, at + 1) : bytes.lastIndexOf(LF, at - 1);
  return at >= 1 ? at : -1;
}
