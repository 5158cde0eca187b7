// Panel (pure): which detail tabs a connection has: its heads always, its POST body and a torn tail when it has them.
import type { ConnectionView } from '../../core/model/types';
import type { ConnectionTab } from '../analysis/messages';

export function connectionTabs(c: ConnectionView): ConnectionTab[] {
  const tabs: ConnectionTab[] = ['headers'];
  if (c.record.requestBody !== undefined) tabs.push('payload');
  if (c.tail && c.tail.bytes.length > 0) tabs.push('tail');
  return tabs;
}
