"""The fault lab's Python client: a real `mcp` 2.3.0 `Client` at its default `mode="auto"`.

Usage: python client.py URL RUN [--touch-tool]

RUN is `clean` (stream_progress, a 64 KiB big_result, ask_user answered by the elicitation callback, a
`subscriptions/listen` stream that receives one tools/list_changed, then closed), `cut` (one stream_progress call
whose response stream the lab may cut; the application does not call again; `call` is the same run where the lab
applies no cut) or `reissue` (the same call; when it
fails, the application calls the tool once more, which the SDK sends as a new request with a new id). Against a 2026-07-28 server the client
negotiates that era itself (server/discover). On a listen stream it prints `LISTENING` on its own line once
acknowledged, and the lab publishes tools/list_changed; with --touch-tool it calls the server's `touch_tools`
instead. Prints one JSON line at the end: {"verdict", "steps", "errors", "protocolVersion"}.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio

from mcp import Client
from mcp.types import ElicitRequestParams, ElicitResult, Implementation

CLIENT_INFO = Implementation(name="mcp-stream-inspector-lab-python-client", version="0.1.0")
ANSWER = "Ada Lovelace"
BIG_RESULT_BYTES = 64 * 1024
PROGRESS = {"count": 5, "delayMs": 30}
#: The cut run's call gives up this soon (the SDK fails a cut stream at once; this only bounds a hang).
CUT_TIMEOUT_S = 3.0


def text_of(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


async def elicit(_context: Any, _params: ElicitRequestParams) -> ElicitResult:
    return ElicitResult(action="accept", content={"answer": ANSWER})


async def progress_call(client: Client, steps: list[str], timeout: float | None = None) -> None:
    seen: list[str] = []

    async def on_progress(progress: float, _total: float | None, _message: str | None) -> None:
        seen.append(str(int(progress)))

    result = await client.call_tool("stream_progress", PROGRESS, read_timeout_seconds=timeout, progress_callback=on_progress)
    expected = ", ".join(f"step {i + 1}" for i in range(PROGRESS["count"]))
    ok = text_of(result).startswith(f"stream_progress finished {PROGRESS['count']} steps ({expected})")
    if result.is_error:
        raise RuntimeError(f"tool error: {text_of(result)}")
    steps.append(f"stream_progress {'ok' if ok else 'CORRUPTED'} (progress {','.join(seen)})")


async def clean(client: Client, steps: list[str], touch_tool: bool) -> None:
    await progress_call(client, steps)
    big = await client.call_tool("big_result", {"sizeBytes": BIG_RESULT_BYTES})
    text = text_of(big)
    steps.append(f"big_result {'ok' if len(text) == BIG_RESULT_BYTES and text.startswith('big_result line 000001') else 'CORRUPTED'}")
    asked = await client.call_tool("ask_user", {"question": "Who wrote the first program?"})
    steps.append(f"ask_user {'ok' if ANSWER in text_of(asked) else 'CORRUPTED'}")
    if not client.protocol_version.startswith("2026"):
        return  # subscriptions/listen is a 2026-07-28 method
    async with client.listen(tools_list_changed=True) as subscription:
        if touch_tool:
            await client.call_tool("touch_tools", {})
        else:
            print("LISTENING", flush=True)
        with anyio.fail_after(5):
            async for event in subscription:
                steps.append(f"listen acknowledged, {type(event).__name__} received")
                break
    steps.append("listen closed")


def describe(error: BaseException) -> str:
    """The innermost errors' messages: anyio wraps a task's failure in an ExceptionGroup."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(e) for e in error.exceptions)
    return f"{type(error).__name__}: {error}"


async def main(url: str, run: str, touch_tool: bool) -> None:
    steps: list[str] = []
    errors: list[str] = []
    verdict = "ok"
    version = ""
    try:
        async with Client(url, client_info=CLIENT_INFO, elicitation_callback=elicit) as client:
            version = client.protocol_version
            steps.append(f"negotiated {version}")
            if run == "clean":
                await clean(client, steps, touch_tool)
            else:
                try:
                    await progress_call(client, steps, CUT_TIMEOUT_S)
                except Exception as error:  # the cut: the SDK fails the call
                    errors.append(describe(error))
                    steps.append("stream_progress failed" + (": its response stream was cut" if run != "call" else ""))
                    verdict = "error"
                    if run == "reissue":  # the application calls again; the SDK gives the request a new id
                        await progress_call(client, steps, CUT_TIMEOUT_S)
                        verdict = "ok"
    except Exception as error:
        errors.append(describe(error))
        verdict = "error"
    if any("CORRUPTED" in s for s in steps):
        verdict = "error"
    print(json.dumps({"verdict": verdict, "steps": steps, "errors": errors, "protocolVersion": version}), flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2], "--touch-tool" in sys.argv[3:])
