// Runs in Node (lab, tests): the nginx.conf the lab generates for one nginx child: a reverse proxy in front of one MCP
// upstream on 127.0.0.1, every path (pid, logs, temp dirs) inside the run's own directory. Pure text, no I/O.

export interface NginxSettings {
  /** The upstream origin, e.g. `http://127.0.0.1:40123` (nginx forwards every path to it). */
  upstream: string;
  /** The port nginx listens on (127.0.0.1). */
  port: number;
  /** The run's directory: pid file, error log, access log and temp paths go under it. */
  dir: string;
  /** `proxy_read_timeout` in seconds: nginx cuts an upstream response after this long without a read. */
  readTimeoutS: number;
  /**
   * `proxy_http_version 1.1` with `proxy_set_header Connection ''` (the usual SSE recipe) instead of nginx's default
   * HTTP/1.0 to the upstream. Off by default: the lab's configurations are nginx's defaults but for the timeout.
   */
  http11Upstream?: boolean;
  /** `proxy_buffering off`; nginx's default is on (an upstream can still turn it off per response: X-Accel-Buffering). */
  bufferingOff?: boolean;
}

/** The nginx.conf text for one run. Everything not named here is nginx's default. */
export function nginxConfig(s: NginxSettings): string {
  const path = (name: string): string => `${s.dir}/${name}`;
  const proxy = [
    `proxy_pass ${s.upstream};`,
    `proxy_read_timeout ${s.readTimeoutS}s;`,
    ...(s.http11Upstream ? ['proxy_http_version 1.1;', "proxy_set_header Connection '';"] : []),
    ...(s.bufferingOff ? ['proxy_buffering off;'] : []),
  ];
  return [
    'daemon off;',
    'master_process on;',
    'worker_processes 1;',
    `pid ${path('nginx.pid')};`,
    `error_log ${path('error.log')} info;`,
    'events { worker_connections 64; }',
    'http {',
    `  access_log ${path('access.log')};`,
    `  client_body_temp_path ${path('client_body')};`,
    `  proxy_temp_path ${path('proxy')};`,
    `  fastcgi_temp_path ${path('fastcgi')};`,
    `  uwsgi_temp_path ${path('uwsgi')};`,
    `  scgi_temp_path ${path('scgi')};`,
    '  server {',
    `    listen 127.0.0.1:${s.port};`,
    '    location / {',
    ...proxy.map((line) => `      ${line}`),
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}
