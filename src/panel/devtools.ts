// DevTools page: runs once per DevTools window; only creates the "MCP Streams" panel. Touches no page data.
import { extensionApi } from './host';

extensionApi()?.devtools?.panels.create('MCP Streams', 'icons/icon-32.png', 'src/panel/panel.html');
