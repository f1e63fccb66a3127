"""A real LangGraph graph behind the real AG-UI adapter (ag-ui-langgraph), for interop tests.

`ag-ui-langgraph` serves `POST /agent` exactly as it would in production, with
`emit_interrupt_outcome=True`, so an interrupted run ends with `RUN_FINISHED.outcome`
and a resume is read from `RunAgentInput.resume[]`. Only the model is replaced: a
scripted chat model that proposes one `deploy_change(target)` call per request to
deploy and, once the tool's message is in the thread, answers with its text. No
network, no keys, the same moves every time.

The graph: START → model → review → tools → model → END. `review` asks the person with
LangGraph's `interrupt()`; an approval (with the arguments edited or not) goes on to
LangGraph's prebuilt `ToolNode`, which runs the tool; a rejection writes the tool
message LangChain's human-in-the-loop middleware writes, and the tool never runs.
Threads live in LangGraph's in-memory checkpointer (`InMemorySaver`): a restart
forgets them, which the tests never need.

Beside the endpoint sit the test controls the tests and the demo already speak to the
mock server (a subset): `GET /__ledger`, `POST /__reset`, `GET|POST /__chaos`,
`GET /__mode`. Faults:

  - `{"point": "after-tool", "action": "fail"}`: the model call after the tool raises,
    as a provider outage would.
  - `{"point": "mid-stream", "action": "drop", "afterEvents": n}`: the next `POST /agent`
    response closes its connection after `n` SSE frames.
  - `{"point": "mid-tool", "action": "delay", "delayMs": n}`: the tool takes `n` ms.
  - `{"point": "before-claim", "action": "fail"}`: for the next `POST /agent` the tool is
    not registered with the `ToolNode`, as when a tool server is down.

Run: `.venv/bin/python app.py` (PORT, PEER_LEDGER); `setup.sh` makes `.venv`.
"""

from __future__ import annotations

import contextvars
import json
import os
import re
import threading
import time
from typing import Any, Literal

import uvicorn
from ag_ui_langgraph import LangGraphAgent, add_langgraph_fastapi_endpoint
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import Command, interrupt

LEDGER_PATH = os.environ.get("PEER_LEDGER", os.path.join(os.path.dirname(__file__), ".ledger.jsonl"))
SUPPORTED_FAULTS = {("after-tool", "fail"), ("mid-stream", "drop"), ("mid-tool", "delay"), ("before-claim", "fail")}

# Armed for one request by the ASGI wrapper below: the tool is not registered.
tool_unavailable: contextvars.ContextVar[bool] = contextvars.ContextVar("tool_unavailable", default=False)


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


def record_execution(thread_id: str, tool_call_id: str, args: dict[str, Any]) -> None:
    entry = {"threadId": thread_id, "toolCallId": tool_call_id, "name": "deploy_change", "args": args, "at": time.time()}
    os.makedirs(os.path.dirname(os.path.abspath(LEDGER_PATH)), exist_ok=True)
    with open(LEDGER_PATH, "a", encoding="utf-8") as ledger:
        ledger.write(json.dumps(entry) + "\n")


def read_ledger() -> list[dict[str, Any]]:
    if not os.path.exists(LEDGER_PATH):
        return []
    with open(LEDGER_PATH, encoding="utf-8") as ledger:
        return [json.loads(line) for line in ledger if line.strip()]


def thread_of(config: RunnableConfig) -> str:
    return str(config.get("configurable", {}).get("thread_id", ""))


def deploy_call_id(thread_id: str) -> str:
    # One proposal per thread, so the thread names the call and the ledger can say which ran.
    return f"deploy-{thread_id}"


@tool
def deploy_change(target: str, config: RunnableConfig) -> str:
    """Deploy the current change to a target environment."""
    thread_id = thread_of(config)
    record_execution(thread_id, deploy_call_id(thread_id), {"target": target})
    delay = faults.take("mid-tool", "delay", thread_id)
    if delay:
        time.sleep(int(delay.get("delayMs", 1000)) / 1000)
    return f"Deployed to {target}."


def deploy_target(text: str) -> str:
    if re.search(r"\bprod(uction)?\b", text, re.IGNORECASE):
        return "prod"
    named = re.search(r"\bdeploy\b.*?\bto\s+([a-z0-9][a-z0-9_-]*)", text, re.IGNORECASE)
    return named.group(1).lower() if named else "staging"


class ScriptedChatModel(BaseChatModel):
    """A model that always makes the same moves: propose the deployment, then report it."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop=None, run_manager=None, **kwargs: Any) -> ChatResult:  # noqa: ANN001
        last = messages[-1]
        if isinstance(last, ToolMessage):
            if faults.take("after-tool", "fail", kwargs["thread_id"]):
                raise RuntimeError("The model provider is unavailable.")
            reply = AIMessage(content=str(last.content))
        else:
            call = {"id": deploy_call_id(kwargs["thread_id"]), "name": "deploy_change", "args": {"target": deploy_target(str(last.content))}}
            reply = AIMessage(content="", tool_calls=[call])
        return ChatResult(generations=[ChatGeneration(message=reply)])


scripted_model = ScriptedChatModel()

RESPONSE_SCHEMA = {
    "type": "object",
    "properties": {
        "approved": {"type": "boolean"},
        "editedArgs": {
            "type": "object",
            "properties": {"target": {"type": "string"}},
            "required": ["target"],
            "additionalProperties": False,
        },
        "reason": {"type": "string"},
    },
    "required": ["approved"],
}


def route_start(state: MessagesState) -> Literal["model", "__end__"]:
    # The adapter re-enters the graph at START on every request without a resume (a
    # hydration too): the model answers only what is new, a person's or a tool's message.
    last = state["messages"][-1] if state["messages"] else None
    return "model" if isinstance(last, (HumanMessage, ToolMessage)) else END


def model(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
    return {"messages": [scripted_model.invoke(state["messages"], config, thread_id=thread_of(config))]}


def after_model(state: MessagesState) -> Literal["review", "__end__"]:
    last = state["messages"][-1]
    return "review" if isinstance(last, AIMessage) and last.tool_calls else END


def review(state: MessagesState) -> Command[Literal["tools", "tools_unavailable", "model"]]:
    call = state["messages"][-1].tool_calls[0]
    answer = interrupt(
        {
            "reason": "tool_approval",
            "message": f"Approve running {call['name']}?",
            "toolCallId": call["id"],
            "responseSchema": RESPONSE_SCHEMA,
            "args": call["args"],
        }
    )
    approved = isinstance(answer, dict) and answer.get("approved") is True
    if not approved:
        # The text and status LangChain's HumanInTheLoopMiddleware writes for a rejection
        # (langchain 1.5.2, agents/middleware/human_in_the_loop.py): the tool did not run.
        rejection = ToolMessage(
            content=(
                f"User rejected the tool call for `{call['name']}` with id {call['id']}. The tool was not "
                "executed. Do not retry this tool call unless the user explicitly requests it."
            ),
            name=call["name"],
            tool_call_id=call["id"],
            status="error",
        )
        return Command(goto="model", update={"messages": [rejection]})
    edited = answer.get("editedArgs")
    next_node = "tools_unavailable" if tool_unavailable.get() else "tools"
    if not isinstance(edited, dict):
        return Command(goto=next_node)
    proposal = state["messages"][-1]
    revised = proposal.model_copy(update={"tool_calls": [{**call, "args": {**call["args"], **edited}}]})
    return Command(goto=next_node, update={"messages": [revised]})


builder = StateGraph(MessagesState)
builder.add_node("model", model)
builder.add_node("review", review)
builder.add_node("tools", ToolNode([deploy_change]))
# The tool server is down: LangGraph's ToolNode without the tool answers the call with its
# own "not a valid tool" error message, and nothing runs.
builder.add_node("tools_unavailable", ToolNode([], name="tools_unavailable"))
builder.add_conditional_edges(START, route_start)
builder.add_conditional_edges("model", after_model)
builder.add_edge("tools", "model")
builder.add_edge("tools_unavailable", "model")
graph = builder.compile(checkpointer=InMemorySaver())

api = FastAPI()
agent = LangGraphAgent(name="deployer", graph=graph, emit_interrupt_outcome=True)
add_langgraph_fastapi_endpoint(api, agent, "/agent")


@api.get("/__ledger")
def ledger(threadId: str | None = None) -> dict[str, list[dict[str, Any]]]:  # noqa: N803 (the mock's query name)
    executions = read_ledger()
    return {"executions": [e for e in executions if threadId is None or e["threadId"] == threadId]}


@api.get("/__mode")
def mode() -> dict[str, str]:
    return {"mode": "langgraph"}


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
    if os.path.exists(LEDGER_PATH):
        os.remove(LEDGER_PATH)
    return {"ok": True}


class DroppedConnection(Exception):
    """Raised into the server to close a response's connection mid-stream."""


async def app(scope, receive, send):  # noqa: ANN001, ANN201
    """ASGI entry: arms this request's faults (tool unavailable, `mid-stream` drop)."""
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

    async def replay_body():  # noqa: ANN202
        return chunks.pop(0) if chunks else await receive()

    tool_unavailable.set(faults.take("before-claim", "fail", thread_id) is not None)
    drop = faults.take("mid-stream", "drop", thread_id)
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
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ.get("PORT", "8862")), log_level="warning")
