"""The real pydantic-ai AG-UI endpoint with a scripted model, for interop tests.

`pydantic-ai-slim[ag-ui]` serves `POST /agent` through `AGUIAdapter.dispatch_request`
exactly as an application would. Only the model is replaced: pydantic-ai's own
`FunctionModel`, scripted to propose one approval-gated `deploy_change(target)` call per
thread and, once the tool has answered, to reply with the tool's text. No network, no
keys, the same moves every time.

History is held on the server by default (`InMemoryConversationStore`, keyed by the
thread); `PEER_HISTORY=client` serves it the adapter's default way instead, where the
client sends the whole conversation with every request.

Beside the endpoint sit the test controls the demo and the tests already speak to the
mock server (a subset): `GET /__ledger`, `POST /__reset`, `GET|POST /__chaos`,
`GET /__mode`, and `GET /__requests?threadId=` (POST /agent received for a thread).

  - `{"point": "after-tool", "action": "fail"}`: the model call that follows the tool's
    result raises, as a provider outage would.
  - `{"point": "mid-stream", "action": "drop", "afterEvents": n}`: the next answer's
    response (a `POST /agent` with an `Idempotency-Key`) closes its connection after `n`
    SSE frames.
  - `{"point": "mid-tool", "action": "delay", "delayMs": n}`: the tool takes `n` ms.
  - `{"point": "before-claim", "action": "fail"}`: for the next answer the tool is not
    offered (its `prepare` hook returns None), as when a tool server is down.

The faults wait for an answer: a page's hydration of the thread in between leaves them armed.

Run: `.venv/bin/python app.py` (PORT, PEER_LEDGER, PEER_HISTORY); `setup.sh` makes `.venv`.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
import re
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from pydantic_ai import Agent, DeferredToolRequests, RunContext
from pydantic_ai.conversation_store import InMemoryConversationStore
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

LEDGER_PATH = os.environ.get("PEER_LEDGER", os.path.join(os.path.dirname(__file__), ".ledger.jsonl"))
HISTORY = os.environ.get("PEER_HISTORY", "server")
if HISTORY not in ("server", "client"):
    raise SystemExit(f"PEER_HISTORY must be 'server' or 'client', not {HISTORY!r}")
SUPPORTED_FAULTS = {("after-tool", "fail"), ("mid-stream", "drop"), ("mid-tool", "delay"), ("before-claim", "fail")}

# The thread a request belongs to, read by the ASGI wrapper below: the scripted model
# names its call after it, and the tool records it in the ledger.
current_thread: contextvars.ContextVar[str] = contextvars.ContextVar("current_thread", default="")
# Whether this request's tool is down (the `before-claim` fault).
tool_down: contextvars.ContextVar[bool] = contextvars.ContextVar("tool_down", default=False)


class Faults:
    """Armed faults, each firing on its next matching request and then disarmed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: list[dict[str, Any]] = []

    def arm(self, faults: list[dict[str, Any]]) -> None:
        with self._lock:
            for fault in faults:
                self._armed.extend([fault] * int(fault.get("times", 1)))

    def take(self, point: str, action: str, thread_id: str) -> dict[str, Any] | None:
        with self._lock:
            for index, fault in enumerate(self._armed):
                matches_thread = fault.get("threadId") in (None, thread_id)
                if fault["point"] == point and fault["action"] == action and matches_thread:
                    return self._armed.pop(index)
        return None

    def pending(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._armed)

    def clear(self) -> None:
        with self._lock:
            self._armed.clear()


faults = Faults()
# POST /agent per thread since the last reset, so a test can bound what a client sends.
agent_requests: dict[str, int] = {}


def record_execution(name: str, args: dict[str, Any], tool_call_id: str) -> None:
    entry = {"threadId": current_thread.get(), "toolCallId": tool_call_id, "name": name, "args": args, "at": time.time()}
    os.makedirs(os.path.dirname(os.path.abspath(LEDGER_PATH)), exist_ok=True)
    with open(LEDGER_PATH, "a", encoding="utf-8") as ledger:
        ledger.write(json.dumps(entry) + "\n")


def read_ledger() -> list[dict[str, Any]]:
    if not os.path.exists(LEDGER_PATH):
        return []
    with open(LEDGER_PATH, encoding="utf-8") as ledger:
        return [json.loads(line) for line in ledger if line.strip()]


def deploy_target(text: str) -> str:
    if re.search(r"\bprod(uction)?\b", text, re.IGNORECASE):
        return "prod"
    named = re.search(r"\bdeploy\b.*?\bto\s+([a-z0-9][a-z0-9_-]*)", text, re.IGNORECASE)
    return named.group(1).lower() if named else "staging"


def last_user_text(messages: list[ModelMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, ModelRequest):
            for part in reversed(message.parts):
                if isinstance(part, UserPromptPart):
                    return part.content if isinstance(part.content, str) else " ".join(map(str, part.content))
    return ""


def tool_results(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [
        part
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart) and part.tool_name == "deploy_change"
    ]


async def scripted_model(messages: list[ModelMessage], _info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
    """Propose the deployment once per user turn; after the tool answered, repeat its text."""
    thread_id = current_thread.get()
    results = tool_results(messages)
    last = messages[-1] if messages else None
    answered = isinstance(last, ModelRequest) and any(isinstance(part, ToolReturnPart) for part in last.parts)
    if results and answered:
        if faults.take("after-tool", "fail", thread_id):
            raise RuntimeError("The model provider is unavailable.")
        yield str(results[-1].content) or "The deployment was not approved."
        return
    text = last_user_text(messages)
    # A long run for throughput measurements: "stream 5000" is answered with that many deltas.
    long_run = re.fullmatch(r"\s*stream (\d+)\s*", text)
    if long_run:
        for index in range(int(long_run.group(1))):
            yield f"word {index} "
        return
    target = deploy_target(text)
    # One proposal per thread, so the thread names the call and the ledger names it too.
    yield {0: DeltaToolCall(name="deploy_change", json_args=json.dumps({"target": target}), tool_call_id=f"deploy-{thread_id}")}


async def offered_unless_down(_ctx: RunContext[None], definition: ToolDefinition) -> ToolDefinition | None:
    # pydantic-ai's own way to withdraw a tool for one run step.
    return None if tool_down.get() else definition


agent = Agent(
    FunctionModel(stream_function=scripted_model, model_name="scripted-deployer"),
    name="deployer",
    # A paused run ends with the calls awaiting approval; the adapter turns them into interrupts.
    output_type=[str, DeferredToolRequests],
    instructions="Deploy changes when asked; every deployment needs the person's approval.",
)


@agent.tool(requires_approval=True, prepare=offered_unless_down)
async def deploy_change(ctx: RunContext[None], target: str) -> str:
    """Deploy the current change to a target environment."""
    record_execution("deploy_change", {"target": target}, ctx.tool_call_id or "")
    delay = faults.take("mid-tool", "delay", current_thread.get())
    if delay:
        await asyncio.sleep(int(delay.get("delayMs", 1000)) / 1000)
    return f"Deployed to {target}."


store = InMemoryConversationStore() if HISTORY == "server" else None


async def run_agent(request: Request) -> Response:
    return await AGUIAdapter.dispatch_request(request, agent=agent, conversation_store=store)


async def ledger(request: Request) -> JSONResponse:
    thread_id = request.query_params.get("threadId")
    executions = read_ledger()
    return JSONResponse({"executions": [e for e in executions if thread_id is None or e["threadId"] == thread_id]})


async def requests_received(request: Request) -> JSONResponse:
    return JSONResponse({"count": agent_requests.get(request.query_params.get("threadId", ""), 0)})


async def mode(_request: Request) -> JSONResponse:
    return JSONResponse({"mode": "pydantic-ai", "history": HISTORY})


async def chaos(request: Request) -> JSONResponse:
    if request.method == "GET":
        return JSONResponse({"faults": faults.pending()})
    body = await request.json()
    requested = body.get("faults", []) if isinstance(body, dict) else []
    unsupported = [f for f in requested if (f.get("point"), f.get("action")) not in SUPPORTED_FAULTS]
    if unsupported:
        return JSONResponse({"error": "unsupported fault", "supported": sorted(map(list, SUPPORTED_FAULTS))}, 422)
    faults.arm(requested)
    return JSONResponse({"faults": faults.pending()})


async def reset(_request: Request) -> JSONResponse:
    global store
    faults.clear()
    agent_requests.clear()
    if os.path.exists(LEDGER_PATH):
        os.remove(LEDGER_PATH)
    if store is not None:
        store = InMemoryConversationStore()
    return JSONResponse({"ok": True})


api = Starlette(
    routes=[
        Route("/agent", run_agent, methods=["POST"]),
        Route("/__ledger", ledger, methods=["GET"]),
        Route("/__requests", requests_received, methods=["GET"]),
        Route("/__mode", mode, methods=["GET"]),
        Route("/__chaos", chaos, methods=["GET", "POST"]),
        Route("/__reset", reset, methods=["POST"]),
    ]
)


class DroppedConnection(Exception):
    """Raised into the server to close a response's connection mid-stream."""


async def app(scope, receive, send):  # noqa: ANN001, ANN201
    """ASGI entry: learns the request's thread, and applies the per-request faults."""
    if scope["type"] != "http" or scope["path"] != "/agent" or scope["method"] != "POST":
        return await api(scope, receive, send)

    chunks: list[dict[str, Any]] = []
    while True:
        message = await receive()
        chunks.append(message)
        if message["type"] != "http.request" or not message.get("more_body"):
            break
    try:
        body = json.loads(b"".join(chunk.get("body", b"") for chunk in chunks) or b"{}")
        thread_id = str(body.get("threadId") or body.get("thread_id") or "")
    except ValueError:
        thread_id = ""
    current_thread.set(thread_id)
    agent_requests[thread_id] = agent_requests.get(thread_id, 0) + 1
    answer = any(name == b"idempotency-key" for name, _ in scope["headers"])
    tool_down.set(answer and faults.take("before-claim", "fail", thread_id) is not None)

    async def replay_body():  # noqa: ANN202
        return chunks.pop(0) if chunks else await receive()

    drop = faults.take("mid-stream", "drop", thread_id) if answer else None
    frames_left = int(drop.get("afterEvents", 0)) if drop else None

    async def send_until_dropped(message):  # noqa: ANN001, ANN202
        nonlocal frames_left
        if frames_left is not None and message["type"] == "http.response.body":
            if frames_left <= 0:
                raise DroppedConnection
            frames_left -= message.get("body", b"").count(b"\n\n")
        await send(message)

    await api(scope, replay_body, send_until_dropped)


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ.get("PORT", "8852")), log_level="warning")
