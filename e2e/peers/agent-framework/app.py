"""The real Agent Framework AG-UI endpoint with a scripted model, for interop tests.

`agent-framework-ag-ui` serves `POST /agent` exactly as it would in production. Only the
model is replaced: a scripted chat client that proposes one approval-gated
`deploy_change(target)` call per thread and, once the tool has run, answers with one line
of text. No network, no keys, the same answer every time.

Beside the endpoint sit the test controls the demo and the tests already speak to the
mock server (a subset): `GET /__ledger` (every execution of the tool), `POST /__reset`,
`GET|POST /__chaos` with two faults, `GET /__mode`.

  - `{"point": "after-tool", "action": "fail"}`: the model call that follows the approved
    tool raises, as a provider outage would.
  - `{"point": "mid-stream", "action": "drop", "afterEvents": n}`: the next `POST /agent`
    response closes its connection after `n` SSE frames.
  - `{"point": "mid-tool", "action": "delay", "delayMs": n}`: the tool takes `n` ms, so a
    second request can arrive while it runs.
  - `{"point": "after-tool", "action": "delay", "delayMs": n}`: the model call that follows
    the approved tool answers after `n` ms, so the run can be cut between the tool's result
    and its end.
  - `{"point": "before-claim", "action": "fail"}`: for the next `POST /agent` the tool has
    no implementation (Agent Framework's `declaration_only`), as when a tool server is down.

Run: `.venv/bin/python app.py` (PORT, PEER_LEDGER); `setup.sh` makes `.venv`.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import os
import re
import threading
import time
from typing import Any

import uvicorn
from agent_framework import (
    Agent,
    BaseChatClient,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    Message,
    ResponseStream,
    tool,
)
from agent_framework._middleware import ChatMiddlewareLayer
from agent_framework._tools import FunctionInvocationLayer
from agent_framework_ag_ui import InMemoryAGUIThreadSnapshotStore, add_agent_framework_fastapi_endpoint
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

LEDGER_PATH = os.environ.get("PEER_LEDGER", os.path.join(os.path.dirname(__file__), ".ledger.jsonl"))
SUPPORTED_FAULTS = {("after-tool", "fail"), ("after-tool", "delay"), ("mid-stream", "drop"), ("mid-tool", "delay"), ("before-claim", "fail")}

# The thread a request belongs to, read by the ASGI wrapper below before the endpoint
# runs: the tool records it in the ledger (Agent Framework does not pass it to tools).
current_thread: contextvars.ContextVar[str] = contextvars.ContextVar("current_thread", default="")


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


def deploy_call_id(thread_id: str) -> str:
    # One proposal per thread, so the thread names the call: the ledger can then say
    # which call ran without Agent Framework handing the call id to the tool.
    return f"deploy-{thread_id}"


# A message that names both prod and staging ("deploy to prod and staging") asks for two
# deployments: two approval-gated calls in one turn, `deploy-<threadId>-<target>`. The
# tool finds its call id here by thread and target.
batched_calls: dict[tuple[str, str], str] = {}


def call_id_for(thread_id: str, target: str) -> str:
    return batched_calls.get((thread_id, target), deploy_call_id(thread_id))


@tool(name="deploy_change", description="Deploy the current change to a target environment.", approval_mode="always_require")
def deploy_change(target: str) -> str:
    record_execution("deploy_change", {"target": target}, call_id_for(current_thread.get(), target))
    delay = faults.take("mid-tool", "delay", current_thread.get())
    if delay:
        time.sleep(int(delay.get("delayMs", 1000)) / 1000)
    return f"Deployed to {target}."


def deploy_target(text: str) -> str:
    if re.search(r"\bprod(uction)?\b", text, re.IGNORECASE):
        return "prod"
    named = re.search(r"\bdeploy\b.*?\bto\s+([a-z0-9][a-z0-9_-]*)", text, re.IGNORECASE)
    return named.group(1).lower() if named else "staging"


def deploy_targets(text: str) -> list[str]:
    """Both targets when the message names prod and staging, else the one `deploy_target` reads."""
    if re.search(r"\bprod(uction)?\b", text, re.IGNORECASE) and re.search(r"\bstaging\b", text, re.IGNORECASE):
        return ["prod", "staging"]
    return [deploy_target(text)]


def text_of(message: Message) -> str:
    return " ".join(content.text or "" for content in message.contents if content.type == "text")


class ScriptedChatClient(FunctionInvocationLayer, ChatMiddlewareLayer, BaseChatClient):
    """A model that always makes the same moves: propose the deployment, then report it."""

    def _inner_get_response(self, *, messages, stream, options, **kwargs):  # noqa: ANN001, ANN003, ANN202
        messages = list(messages)
        pause = self._pause_after_tool(messages)
        contents = self._next_move(messages)
        if stream:

            async def updates():  # noqa: ANN202
                await asyncio.sleep(pause)
                yield ChatResponseUpdate(role="assistant", contents=contents)

            return ResponseStream(updates(), finalizer=ChatResponse.from_updates)

        async def response() -> ChatResponse:
            await asyncio.sleep(pause)
            return ChatResponse(messages=[Message(role="assistant", contents=contents)])

        return response()

    def _pause_after_tool(self, messages: list[Message]) -> float:
        """Seconds the answer after a tool result waits (armed `after-tool` delay), without blocking the server."""
        if not any(content.type == "function_result" for message in messages for content in message.contents):
            return 0
        delay = faults.take("after-tool", "delay", current_thread.get())
        return int(delay.get("delayMs", 1000)) / 1000 if delay else 0

    def _next_move(self, messages: list[Message]) -> list[Content]:
        results = [content for message in messages for content in message.contents if content.type == "function_result"]
        if results:
            if faults.take("after-tool", "fail", current_thread.get()):
                raise RuntimeError("The model provider is unavailable.")
            # One call: its result. Two in one turn: both results, in order.
            batch = [result for result in results if result.call_id in batched_calls.values()]
            outcome = " ".join(str(result.result or "") for result in batch) if batch else str(results[-1].result or "")
            return [Content.from_text(text=outcome or "The deployment was not approved.")]
        last_user = next((m for m in reversed(messages) if m.role == "user"), None)
        thread_id = current_thread.get()
        targets = deploy_targets(text_of(last_user) if last_user else "")
        if len(targets) == 1:
            call_ids = [deploy_call_id(thread_id)]
        else:
            call_ids = [f"{deploy_call_id(thread_id)}-{target}" for target in targets]
            batched_calls.update({(thread_id, target): call_id for target, call_id in zip(targets, call_ids)})
        return [
            Content.from_function_call(call_id=call_id, name="deploy_change", arguments=json.dumps({"target": target}))
            for target, call_id in zip(targets, call_ids)
        ]


agent = Agent(
    name="deployer",
    instructions="Deploy changes when asked; every deployment needs the person's approval.",
    client=ScriptedChatClient(),
    tools=[deploy_change],
)

api = FastAPI()
endpoint_options: dict[str, Any] = {"snapshot_store": InMemoryAGUIThreadSnapshotStore(), "keepalive_seconds": None}
# The tests are one user. Later releases say so with `single_user`; earlier ones with a
# snapshot scope resolver that gives every request the same scope.
if "single_user" in inspect.signature(add_agent_framework_fastapi_endpoint).parameters:
    endpoint_options["single_user"] = True
else:
    endpoint_options["snapshot_scope_resolver"] = lambda _request: "interop-tests"
add_agent_framework_fastapi_endpoint(api, agent, "/agent", **endpoint_options)


@api.get("/__ledger")
def ledger(threadId: str | None = None) -> dict[str, list[dict[str, Any]]]:  # noqa: N803 (the mock's query name)
    executions = read_ledger()
    return {"executions": [e for e in executions if threadId is None or e["threadId"] == threadId]}


@api.get("/__mode")
def mode() -> dict[str, str]:
    return {"mode": "agent-framework"}


@api.get("/__chaos")
def pending_faults() -> dict[str, Any]:
    return {"faults": faults.pending()}


@api.post("/__chaos")
async def arm_faults(request: Request) -> JSONResponse:
    body = await request.json()
    requested = body.get("faults", []) if isinstance(body, dict) else []
    unsupported = [f for f in requested if (f.get("point"), f.get("action")) not in SUPPORTED_FAULTS]
    if unsupported:
        return JSONResponse({"error": "unsupported fault", "supported": sorted(map(list, SUPPORTED_FAULTS))}, 422)
    faults.arm(requested)
    return JSONResponse({"faults": faults.pending()})


@api.post("/__reset")
def reset() -> dict[str, bool]:
    faults.clear()
    batched_calls.clear()
    if os.path.exists(LEDGER_PATH):
        os.remove(LEDGER_PATH)
    return {"ok": True}


class DroppedConnection(Exception):
    """Raised into the server to close a response's connection mid-stream."""


async def app(scope, receive, send):  # noqa: ANN001, ANN201
    """ASGI entry: learns the request's thread, and applies the `mid-stream` drop."""
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

    async def replay_body():  # noqa: ANN202
        return chunks.pop(0) if chunks else await receive()

    # The framework's own switch for a tool without an implementation, for this request only.
    unavailable = faults.take("before-claim", "fail", thread_id) is not None
    deploy_change._declaration_only = unavailable

    drop = faults.take("mid-stream", "drop", thread_id)
    frames_left = int(drop.get("afterEvents", 0)) if drop else None

    async def send_until_dropped(message):  # noqa: ANN001, ANN202
        nonlocal frames_left
        if frames_left is not None and message["type"] == "http.response.body":
            if frames_left <= 0:
                raise DroppedConnection
            frames_left -= message.get("body", b"").count(b"\n\n")
        await send(message)

    try:
        await api(scope, replay_body, send_until_dropped)
    finally:
        deploy_change._declaration_only = False


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ.get("PORT", "8799")), log_level="warning")
