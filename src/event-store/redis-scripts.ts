// Runs in Redis (Lua 5.1, Redis 6.2+), sent by redis.ts: the Redis store's three scripts. Each runs atomically, so
// a seq is issued and its entry appended in one step, and a resume is judged and read against one state of the log.
/*
 * Keys (one hash tag, so a cluster keeps them in one slot):
 *   KEYS[1] meta   hash: epoch (the namespace's, created by the first store), seq (the last issued), sec (clock mark)
 *   KEYS[2] log    stream: one entry per event, id `<seq>-0`, fields s (session), k (stream), m (message JSON)
 *   KEYS[3] tails  zset: member `<session>\n<stream>`, score = the stream's last seq (a cursor there has no successor)
 *   KEYS[4] clock  zset: member = the first seq stored in a second, score = its time in ms (time-window trimming)
 * Seq numbers go through string.format('%d'): Lua 5.1 numbers are doubles, and `..` would write 1e+14.
 */

/** Shared helpers: an entry's fields, and the decision boundary of a resume. */
const COMMON = `
local function fields(entry)
  local s, k, m
  local f = entry[2]
  for i = 1, #f, 2 do
    if f[i] == 's' then s = f[i + 1] elseif f[i] == 'k' then k = f[i + 1] elseif f[i] == 'm' then m = f[i + 1] end
  end
  return s, k, m
end

-- 'ok', epoch, stream, tail ('1' when the cursor itself is gone but was its stream's last event), or reason, epoch.
local function resolve(cursorEpoch, seqText, session)
  local meta = redis.call('HMGET', KEYS[1], 'epoch', 'seq')
  local epoch = meta[1]
  if not epoch then return 'foreign-epoch', '' end
  if epoch ~= cursorEpoch then return 'foreign-epoch', epoch end
  if tonumber(seqText) > tonumber(meta[2] or '0') then return 'unknown', epoch end
  local id = seqText .. '-0'
  local found = redis.call('XRANGE', KEYS[2], id, id)
  local s, k
  local tail = '0'
  if #found == 1 then
    s, k = fields(found[1])
  else
    local idle = redis.call('ZRANGEBYSCORE', KEYS[3], seqText, seqText)
    if #idle == 0 then return 'evicted', epoch end
    local nl = string.find(idle[1], '\\n', 1, true)
    s = string.sub(idle[1], 1, nl - 1)
    k = string.sub(idle[1], nl + 1)
    tail = '1'
  end
  if s ~= session then return 'other-session', epoch end
  return 'ok', epoch, k, tail
end
`;

/**
 * Store one event. ARGV: epoch candidate, session, stream, message JSON, retainMs, maxEvents, maxIdleStreams, trim
 * mode (`~` or `=`). Returns {epoch, seq}.
 */
export const STORE_SCRIPT = `
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch then
  epoch = ARGV[1]
  redis.call('HSET', KEYS[1], 'epoch', epoch)
end
local seq = string.format('%d', tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') + 1)
-- Append first: if it fails (out of memory) no number was spent, so the log has no hole.
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[8], ARGV[6], seq .. '-0', 's', ARGV[2], 'k', ARGV[3], 'm', ARGV[4])
redis.call('HSET', KEYS[1], 'seq', seq)
redis.call('ZADD', KEYS[3], seq, ARGV[2] .. '\\n' .. ARGV[3])
-- Once a second: mark the clock, trim what is older than the window, bound the idle-stream index.
local time = redis.call('TIME')
local sec = time[1]
if redis.call('HGET', KEYS[1], 'sec') ~= sec then
  local now = tonumber(sec) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('HSET', KEYS[1], 'sec', sec)
  redis.call('ZADD', KEYS[4], now, seq)
  local mark = redis.call('ZREVRANGEBYSCORE', KEYS[4], now - tonumber(ARGV[5]), '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  if #mark == 2 then
    -- The mark's event and every one before it were stored at a time older than the window.
    redis.call('XTRIM', KEYS[2], 'MINID', ARGV[8], string.format('%d', tonumber(mark[1]) + 1) .. '-0')
    redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', mark[2])
  end
  local extra = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[7])
  if extra > 0 then redis.call('ZREMRANGEBYRANK', KEYS[3], 0, extra - 1) end
end
return {epoch, seq}
`;

/** Judge a cursor. ARGV: cursor epoch, cursor seq, session. Returns {'ok', epoch, stream} or {reason, epoch}. */
export const RESOLVE_SCRIPT = `${COMMON}
local result, epoch, stream = resolve(ARGV[1], ARGV[2], ARGV[3])
return {result, epoch, stream or ''}
`;

/**
 * One batch of a replay. ARGV: cursor epoch, position (the last seq read), session, stream, batch size, first ('1':
 * judge the cursor first, as RESOLVE_SCRIPT does; later batches check that nothing after the position was trimmed).
 * Returns {'ok', epoch, stream, position, done, seq1, message1, ...} or {reason, epoch}.
 */
export const REPLAY_SCRIPT = `${COMMON}
local session, stream, epoch = ARGV[3], ARGV[4], nil
local after = ARGV[2]
if ARGV[6] == '1' then
  local result, e, k, tail = resolve(ARGV[1], after, session)
  if result ~= 'ok' then return {result, e} end
  epoch, stream = e, k
  -- The cursor was its stream's last event: nothing follows it.
  if tail == '1' then return {'ok', epoch, stream, after, 1} end
else
  epoch = redis.call('HGET', KEYS[1], 'epoch')
  if epoch ~= ARGV[1] then return {'foreign-epoch', epoch or ''} end
  local head = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
  if #head == 1 then
    if tonumber(string.match(head[1][1], '^(%d+)')) > tonumber(after) + 1 then return {'evicted', epoch} end
  elseif tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') > tonumber(after) then
    return {'evicted', epoch}
  end
end
local limit = tonumber(ARGV[5])
local entries = redis.call('XRANGE', KEYS[2], '(' .. after .. '-0', '+', 'COUNT', limit)
local out = {'ok', epoch, stream, after, #entries < limit and 1 or 0}
for _, entry in ipairs(entries) do
  local seq = string.match(entry[1], '^(%d+)')
  out[4] = seq
  local s, k, m = fields(entry)
  if s == session and k == stream then
    out[#out + 1] = seq
    out[#out + 1] = m
  end
end
return out
`;
