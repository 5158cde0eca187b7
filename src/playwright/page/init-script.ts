// Page MAIN world, document_start, every frame: the Playwright fixture's init script (built into one self-contained
// script by vite.node.config.ts). The extension's tap, unchanged, then the receiver that takes the tap's port in place
// of the extension's bridge. Never throws into the page.
import '../../tap/index';
import { guarded } from '../../tap/guard';
import { captureNatives } from '../../tap/natives';
import { startReceiver } from './receiver';

guarded(() => startReceiver(globalThis, captureNatives(globalThis)));
