// DevTools page: runs once per DevTools window and only creates the "MCP Streams" panel. Touches no page data.
import { browser } from '../platform/browser';

// Root-relative paths: Firefox resolves relative ones against this page (src/panel/src/panel/panel.html, missing);
// Chromium takes both forms from the extension root.
void browser.devtools.panels.create('MCP Streams', '/icons/icon-32.png', '/src/panel/panel.html');
