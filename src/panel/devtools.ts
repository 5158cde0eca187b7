// DevTools page: runs once per DevTools window and only creates the "MCP Streams" panel. Touches no page data.
import { browser } from '../platform/browser';

void browser.devtools.panels.create('MCP Streams', 'icons/icon-32.png', 'src/panel/panel.html');
