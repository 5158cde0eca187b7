"""The fault lab's Python peer: a real `mcp` 2.3.0 MCPServer over streamable HTTP on 127.0.0.1.

Usage: python server.py PORT

One server for both eras, as the SDK ships it: requests carrying `MCP-Protocol-Version: 2026-07-28` go to the
SDK's stateless ("modern") path; 2025 clients get stateful sessions with an in-memory event store, so their POST
streams carry ids, a priming event and `retry:`, and a GET with `Last-Event-ID` replays. Prints the endpoint URL on
its own line once it accepts connections. The tools answer the exact texts of e2e/lab/payload.ts.
"""

from __future__ import annotations

import sys
from collections import deque
from typing import Annotated

import anyio
import uvicorn
from pydantic import BaseModel

from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.types import JSONRPCMessage

SERVER_NAME = "mcp-stream-inspector-lab-python"
#: The `retry:` the server announces on its 2025 streams: short, so a resuming client comes back at once.
RETRY_MS = 150


def checksum(text: str) -> str:
    """FNV-1a over UTF-16 code units, as payload.ts (the texts are ASCII, so one unit a character)."""
    value = 0x811C9DC5
    for unit in text.encode("utf-16-le")[::2]:
        value ^= unit
        value = (value * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def stream_progress_text(count: int) -> str:
    steps = ", ".join(f"step {i + 1}" for i in range(count))
    return f"stream_progress finished {count} steps ({steps}); checksum {checksum(steps)}"


def big_result_text(size_bytes: int) -> str:
    filler = "abcdefghijklmnopqrstuvwxyz0123456789"
    lines: list[str] = []
    length = 0
    n = 1
    while length < size_bytes:
        line = f"big_result line {n:06d} {filler}\n"
        lines.append(line)
        length += len(line)
        n += 1
    return "".join(lines)[:size_bytes]


class MemoryEventStore(EventStore):
    """Every event of every stream, ids `<stream>_<seq>` (the SDK example's scheme), replayed after a cursor."""

    def __init__(self) -> None:
        self.events: deque[tuple[StreamId, EventId, JSONRPCMessage | None]] = deque(maxlen=10_000)
        self.seq = 0

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        self.seq += 1
        event_id = f"{stream_id}_{self.seq}"
        self.events.append((stream_id, event_id, message))
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        ids = [e[1] for e in self.events]
        if last_event_id not in ids:
            return None
        at = ids.index(last_event_id)
        stream_id = self.events[at][0]
        for sid, event_id, message in list(self.events)[at + 1 :]:
            # Priming events (no message) are not replayed: the SDK writes a new one after the replay.
            if sid == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


class Answer(BaseModel):
    answer: str


async def ask(question: str) -> Elicit[Answer]:
    # A resolver: the SDK asks the client (2025: elicitation/create mid-call; 2026-07-28: input_required).
    return Elicit(question, Answer)


def lab_server() -> MCPServer:
    server = MCPServer(SERVER_NAME)

    @server.tool(description="Sends `count` progress notifications `delayMs` apart, then a text result.")
    async def stream_progress(count: int, delayMs: int, ctx: Context) -> str:  # noqa: N803 (the lab's argument name)
        for step in range(1, count + 1):
            await anyio.sleep(delayMs / 1000)
            await ctx.report_progress(step, count, f"step {step}")
        return stream_progress_text(count)

    @server.tool(description="Returns a text result of exactly `sizeBytes` bytes.")
    async def big_result(sizeBytes: int) -> str:  # noqa: N803
        return big_result_text(sizeBytes)

    @server.tool(description="Asks the client a question (elicitation) and returns the answer.")
    async def ask_user(question: str, answer: Annotated[Answer, Resolve(ask)]) -> str:
        return f"the user answered: {answer.answer}"

    @server.tool(description="Publishes tools/list_changed to every subscriptions/listen stream.")
    async def touch_tools(ctx: Context) -> str:
        await ctx.notify_tools_changed()
        return "tools changed"

    return server


async def main(port: int) -> None:
    app = lab_server().streamable_http_app(event_store=MemoryEventStore(), retry_interval=RETRY_MS)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    async with anyio.create_task_group() as group:
        group.start_soon(server.serve)
        while not server.started:
            await anyio.sleep(0.02)
        bound = server.servers[0].sockets[0].getsockname()[1]
        print(f"http://127.0.0.1:{bound}/mcp", flush=True)


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 0)
