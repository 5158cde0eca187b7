"""A real `mcp` 2.3.0 `Client` (default `mode="auto"`) calling the event-store test app's `stream` tool.

Usage: python resume_client.py URL COUNT DELAY_MS BYTES

The app is src/event-store/sdk-app.fixture.ts (TypeScript SDK 1.32, guarded event store). The client calls
`stream` once with a progress callback; the lab may cut the response stream and restart the server meanwhile, so the
SDK resumes with Last-Event-ID on its own. If the call fails, the application does what the field reports prescribe
after a refused resume: it closes that session, opens a new one and calls the tool once more. Prints one JSON line:
{"calls": [{"progress", "text"?, "error"?}], "errors", "protocolVersion"}; `errors` are failures outside the calls.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio

from mcp import Client
from mcp.types import Implementation

CLIENT_INFO = Implementation(name="mcp-stream-inspector-lab-python-resume-client", version="0.1.0")
#: A call gives up this soon: only a hang reaches it (the SDK fails a refused resume after its own retries).
CALL_TIMEOUT_S = 20.0


def describe(error: BaseException) -> str:
    """The innermost errors' messages: anyio wraps a task's failure in an ExceptionGroup."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(e) for e in error.exceptions)
    return f"{type(error).__name__}: {error}"


async def call_once(url: str, arguments: dict[str, int], calls: list[dict[str, Any]]) -> tuple[bool, str]:
    """One session, one call of `stream`; True when the call returned a result."""
    call: dict[str, Any] = {"progress": []}
    calls.append(call)

    async def on_progress(progress: float, _total: float | None, _message: str | None) -> None:
        call["progress"].append(int(progress))

    async with Client(url, client_info=CLIENT_INFO) as client:
        version = client.protocol_version
        try:
            result = await client.call_tool(
                "stream", arguments, read_timeout_seconds=CALL_TIMEOUT_S, progress_callback=on_progress
            )
        except Exception as error:  # a refused resume: the SDK fails the call
            call["error"] = describe(error)
            return False, version
        call["text"] = "".join(getattr(c, "text", "") for c in result.content)
        return True, version


async def main(url: str, count: int, delay_ms: int, size: int) -> None:
    arguments = {"count": count, "delayMs": delay_ms, "bytes": size}
    calls: list[dict[str, Any]] = []
    errors: list[str] = []
    version = ""
    try:
        done, version = await call_once(url, arguments, calls)
        if not done:  # the session's call was lost: a new session, the call made again
            _, version = await call_once(url, arguments, calls)
    except Exception as error:
        errors.append(describe(error))
    print(json.dumps({"calls": calls, "errors": errors, "protocolVersion": version}), flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
