#!/usr/bin/env python3
# model-server.py: a canned language model for running real agents offline
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Speaks, streamed as server-sent events, the three APIs the agents we test
# use: Anthropic Messages (POST .../v1/messages), OpenAI Responses (POST
# .../responses) and the Gemini API (POST .../models/M:streamGenerateContent,
# and :generateContent, :countTokens). It listens on 127.0.0.1 only and prints
# the port it got on stdout, then serves until killed. See README.md.
#
# What it answers is decided by the last prompt of the conversation (the last
# user text that is not a tool result), line by line:
#
#   run: COMMAND          call the agent's shell tool with COMMAND
#   call: PATTERN [JSON]  call the offered tool whose name matches PATTERN
#                         (fnmatch, or a suffix: "echo" matches "mcp__x__echo")
#                         with the JSON object as arguments
#   say: TEXT             answer TEXT
#   anything else         answer "Canned answer to: " and the prompt's first line
#
# Once the tool result comes back, the final answer quotes it, so that a test
# sees that the result went from the tool to the model. A --script file maps
# other prompts to these lines (see README.md).

import argparse
import fnmatch
import http.server
import itertools
import json
import re
import sys
import threading

DIRECTIVE = re.compile(r"^\s*(run|call|say):[ \t]*(.+?)\s*$", re.MULTILINE)
CONTEXT_BLOCK = re.compile(r"<([A-Za-z_-]+)>.*?</\1>", re.DOTALL)
SHELL_TOOLS = ("Bash", "run_shell_command", "exec_command", "shell_command", "shell")

ids = itertools.count(1)
log_lock = threading.Lock()


def new_id(prefix):
    return "%s_%04d" % (prefix, next(ids))


def chunks(text, n=3):
    """Splits text into up to n pieces, so that answers stream."""
    size = max(1, -(-len(text) // n))
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


# --- what to answer --------------------------------------------------------

class Conversation:
    """What the server needs from a request, whatever the API."""

    def __init__(self):
        self.prompt = None        # the text of the last prompt
        self.tool_result = None   # the result that ends the conversation, if one does
        self.called = []          # names of the tools called since the prompt
        self.tools = {}           # offered tools: name -> JSON schema of the arguments
        self.calls = {}           # name -> how to call it, when not {"name": name}
        self.text = ""            # all the text of the request, to find deferred tools
        self.images = 0           # images that came with the last prompt


class Reply:
    """Text, and maybe one tool call after it."""

    def __init__(self, text, tool=None, arguments=None, call=None):
        self.text = text
        self.tool = tool
        self.arguments = arguments
        self.call = call or {"name": tool}


def shell_arguments(schema, command):
    props = (schema or {}).get("properties", {})
    args = {}
    if "command" in props:
        kind = props["command"].get("type")
        if kind == "array" or (isinstance(kind, str) and kind.upper() == "ARRAY"):
            args["command"] = ["bash", "-lc", command]
        else:
            args["command"] = command
    elif "cmd" in props:
        args["cmd"] = command
    else:
        args["command"] = command
    if "description" in props:
        args["description"] = "Run a command"
    # codex runs commands in its sandbox without asking; asking to leave it
    # makes it ask the client first, whether its sandbox works here or not
    if "require_escalated" in props.get("sandbox_permissions", {}).get("enum", []):
        args["sandbox_permissions"] = "require_escalated"
        args["justification"] = "Run the command you asked for?"
    return args


def matches(name, pattern):
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(name, pattern)
    return name == pattern or name.endswith("_" + pattern) or name.endswith("." + pattern)


def find_tool(names, pattern):
    found = sorted(n for n in names if matches(n, pattern))
    return found[0] if found else None


class Script:
    def __init__(self, rules):
        self.rules = rules        # [(substring of the prompt, directive)]

    def directive(self, prompt):
        for match, directive in self.rules:
            if match in prompt:
                return directive
        found = DIRECTIVE.findall(prompt)
        if found:
            kind, rest = found[-1]
            return "%s: %s" % (kind, rest)
        return None

    def target(self, conv, directive):
        """(tool pattern, arguments, or a reason why not) for a directive."""
        kind, _, rest = directive.partition(":")
        rest = rest.strip()
        if kind == "run":
            tool = next((n for n in SHELL_TOOLS if n in conv.tools), None)
            tool = tool or find_tool(conv.tools, "*shell*") or find_tool(conv.tools, "*exec*")
            if tool is None:
                return None, None, "No shell tool was offered; I cannot run: %s" % rest
            return tool, shell_arguments(conv.tools[tool], rest), None
        pattern, _, args = rest.partition(" ")
        try:
            arguments = json.loads(args) if args.strip() else {}
        except ValueError:
            return None, None, "The arguments for %s are not JSON: %s" % (pattern, args)
        return pattern, arguments, None

    def reply(self, conv):
        prompt = (conv.prompt or "").strip()
        directive = self.directive(prompt)
        if directive is not None and directive.startswith("say:"):
            return Reply(directive[4:].strip())
        if directive is None or not conv.tools:
            # without the context blocks agents add (<system-reminder>…</system-reminder>)
            bare = CONTEXT_BLOCK.sub("", prompt).strip()
            first_line = bare.splitlines()[0] if bare else ""
            seen = ""
            if conv.images:
                seen = " (with %d image%s)" % (conv.images, "" if conv.images == 1 else "s")
            return Reply("Canned answer to: %s%s" % (first_line[:200], seen))

        pattern, arguments, problem = self.target(conv, directive)
        if problem is not None:
            return Reply(problem)
        tool = find_tool(conv.tools, pattern)

        if tool is not None and tool not in conv.called:
            return Reply("I will call %s." % tool, tool, arguments, conv.calls.get(tool))
        if conv.tool_result is not None:
            result = conv.tool_result.strip()
            if len(result) > 400:
                result = result[:400] + "…"
            return Reply("The tool finished. It said: %s" % result)

        # Claude Code offers MCP tools by name only, to be fetched with ToolSearch
        names = set(re.findall(r"[A-Za-z0-9_.-]+", conv.text)) - {pattern}
        deferred = find_tool(names, pattern)
        if deferred is not None and "ToolSearch" in conv.tools and "ToolSearch" not in conv.called:
            return Reply("I will look for %s." % deferred, "ToolSearch",
                         {"query": "select:" + deferred, "max_results": 5})
        return Reply("No tool matching %s was offered (offered: %s)"
                     % (pattern, ", ".join(sorted(conv.tools))))


def text_of(content):
    """The text of a message content in any of the three APIs."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    out = []
    for part in content:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                out.append(part["text"])
            elif "content" in part:
                out.append(text_of(part["content"]))
            elif "output" in part:
                out.append(text_of(part["output"]))
    return "\n".join(out)


def strings_of(value):
    """Every string in a JSON value, one a line."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return "\n".join(strings_of(v) for v in value)
    return ""


def default_for_schema(schema):
    """A value that fits a JSON schema (Gemini's side questions want JSON)."""
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    kind = (kind or "object").lower()
    if "enum" in schema:
        # "user" ends Gemini's next-speaker check
        return "user" if "user" in schema["enum"] else schema["enum"][0]
    if kind == "object":
        props = schema.get("properties", {})
        return {k: default_for_schema(v) for k, v in props.items()}
    if kind == "array":
        return []
    if kind == "string":
        return "canned"
    if kind in ("number", "integer"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return None


# --- Anthropic Messages ----------------------------------------------------

def anthropic_conversation(body):
    conv = Conversation()
    for tool in body.get("tools") or []:
        if "name" in tool:
            conv.tools[tool["name"]] = tool.get("input_schema")
    messages = body.get("messages") or []
    conv.text = strings_of([body.get("system"), messages])
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list):
            content = [{"type": "text", "text": text_of(content)}]
        content = [p for p in content if isinstance(p, dict)]
        if message.get("role") == "user":
            results = [p for p in content if p.get("type") == "tool_result"]
            text = text_of([p for p in content if p.get("type") == "text"])
            if results:
                conv.tool_result = text_of(results[-1].get("content"))
            elif text.strip():
                conv.prompt, conv.called, conv.tool_result = text, [], None
                conv.images = len([p for p in content if p.get("type") == "image"])
        elif message.get("role") == "assistant":
            conv.called += [p.get("name") for p in content if p.get("type") == "tool_use"]
            conv.tool_result = None
    return conv


def anthropic_events(body, reply):
    msg_id = new_id("msg")
    model = body.get("model", "canned")
    yield "message_start", {
        "type": "message_start",
        "message": {"id": msg_id, "type": "message", "role": "assistant", "model": model,
                    "content": [], "stop_reason": None, "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1}}}
    yield "content_block_start", {"type": "content_block_start", "index": 0,
                                  "content_block": {"type": "text", "text": ""}}
    for piece in chunks(reply.text):
        yield "content_block_delta", {"type": "content_block_delta", "index": 0,
                                      "delta": {"type": "text_delta", "text": piece}}
    yield "content_block_stop", {"type": "content_block_stop", "index": 0}
    stop = "end_turn"
    if reply.tool is not None:
        stop = "tool_use"
        yield "content_block_start", {
            "type": "content_block_start", "index": 1,
            "content_block": {"type": "tool_use", "id": new_id("toolu"), "name": reply.tool,
                              "input": {}}}
        for piece in chunks(json.dumps(reply.arguments), 2):
            yield "content_block_delta", {"type": "content_block_delta", "index": 1,
                                          "delta": {"type": "input_json_delta",
                                                    "partial_json": piece}}
        yield "content_block_stop", {"type": "content_block_stop", "index": 1}
    yield "message_delta", {"type": "message_delta",
                            "delta": {"stop_reason": stop, "stop_sequence": None},
                            "usage": {"output_tokens": 5}}
    yield "message_stop", {"type": "message_stop"}


def anthropic_message(body, reply):
    content = [{"type": "text", "text": reply.text}]
    stop = "end_turn"
    if reply.tool is not None:
        content.append({"type": "tool_use", "id": new_id("toolu"), "name": reply.tool,
                        "input": reply.arguments})
        stop = "tool_use"
    return {"id": new_id("msg"), "type": "message", "role": "assistant",
            "model": body.get("model", "canned"), "content": content, "stop_reason": stop,
            "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}


# --- OpenAI Responses ------------------------------------------------------

def namespaced(space, name):
    return space + ("" if space.endswith("_") else "__") + name


def responses_conversation(body):
    conv = Conversation()
    for tool in body.get("tools") or []:
        if tool.get("type") == "function" and "name" in tool:
            conv.tools[tool["name"]] = tool.get("parameters")
        elif tool.get("type") == "namespace":
            # codex groups the tools of an MCP server: {"name": "mcp__srv", "tools": [...]};
            # a call names the tool and its namespace
            space = tool.get("name", "")
            for inner in tool.get("tools") or []:
                if inner.get("type") == "function" and "name" in inner:
                    full = namespaced(space, inner["name"])
                    conv.tools[full] = inner.get("parameters")
                    conv.calls[full] = {"name": inner["name"], "namespace": space}
    items = body.get("input")
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    items = items or []
    conv.text = strings_of([body.get("instructions"), items])
    for item in items:
        kind = item.get("type", "message")
        if kind == "message" and item.get("role") == "user":
            text = text_of(item.get("content")).strip()
            # context codex adds (<environment_context>…</environment_context>) is no prompt
            if text and not (text.startswith("<") and text.endswith(">")):
                conv.prompt, conv.called, conv.tool_result = text, [], None
                content = item.get("content")
                conv.images = len([p for p in content if isinstance(p, dict)
                                   and p.get("type") == "input_image"]) if isinstance(content, list) else 0
        elif kind == "message" and item.get("role") == "assistant":
            conv.tool_result = None
        elif kind.endswith("_call"):
            name = item.get("name", kind)
            if item.get("namespace"):
                name = namespaced(item["namespace"], name)
            conv.called.append(name)
            conv.tool_result = None
        elif kind.endswith("_call_output"):
            conv.tool_result = text_of(item.get("output"))
    return conv


def responses_json_reply(body):
    """Side questions (title, next prompt suggestions) ask for JSON."""
    fmt = (body.get("text") or {}).get("format") or {}
    if fmt.get("type") != "json_schema":
        return None
    return json.dumps(default_for_schema(fmt.get("schema") or {}))


def responses_output(reply):
    msg_id = new_id("msg")
    items = [{"type": "message", "id": msg_id, "role": "assistant", "status": "completed",
              "content": [{"type": "output_text", "text": reply.text, "annotations": []}]}]
    if reply.tool is not None:
        items.append(dict(reply.call, type="function_call", id=new_id("fc"),
                          call_id=new_id("call"), arguments=json.dumps(reply.arguments),
                          status="completed"))
    return items


def responses_object(body, resp_id, status, output):
    return {"id": resp_id, "object": "response", "created_at": 0, "status": status,
            "model": body.get("model", "canned"), "output": output,
            "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": 15}}


def responses_events(body, reply):
    resp_id = new_id("resp")
    seq = itertools.count()
    output = responses_output(reply)
    yield "response.created", {"type": "response.created", "sequence_number": next(seq),
                                "response": responses_object(body, resp_id, "in_progress", [])}
    for index, item in enumerate(output):
        added = dict(item, status="in_progress")
        if item["type"] == "message":
            added["content"] = []
        yield "response.output_item.added", {"type": "response.output_item.added",
                                             "sequence_number": next(seq),
                                             "output_index": index, "item": added}
        if item["type"] == "message":
            part = {"type": "output_text", "text": "", "annotations": []}
            yield "response.content_part.added", {
                "type": "response.content_part.added", "sequence_number": next(seq),
                "item_id": item["id"], "output_index": index, "content_index": 0, "part": part}
            for piece in chunks(reply.text):
                yield "response.output_text.delta", {
                    "type": "response.output_text.delta", "sequence_number": next(seq),
                    "item_id": item["id"], "output_index": index, "content_index": 0,
                    "delta": piece}
            yield "response.output_text.done", {
                "type": "response.output_text.done", "sequence_number": next(seq),
                "item_id": item["id"], "output_index": index, "content_index": 0,
                "text": reply.text}
            yield "response.content_part.done", {
                "type": "response.content_part.done", "sequence_number": next(seq),
                "item_id": item["id"], "output_index": index, "content_index": 0,
                "part": item["content"][0]}
        elif item["type"] == "function_call":
            yield "response.function_call_arguments.delta", {
                "type": "response.function_call_arguments.delta",
                "sequence_number": next(seq), "item_id": item["id"], "output_index": index,
                "delta": item["arguments"]}
            yield "response.function_call_arguments.done", {
                "type": "response.function_call_arguments.done",
                "sequence_number": next(seq), "item_id": item["id"], "output_index": index,
                "arguments": item["arguments"]}
        yield "response.output_item.done", {"type": "response.output_item.done",
                                            "sequence_number": next(seq),
                                            "output_index": index, "item": item}
    yield "response.completed", {"type": "response.completed", "sequence_number": next(seq),
                                 "response": responses_object(body, resp_id, "completed",
                                                              output)}


# --- Gemini API ------------------------------------------------------------

def gemini_conversation(body):
    conv = Conversation()
    for tool in body.get("tools") or []:
        for decl in tool.get("functionDeclarations") or tool.get("function_declarations") or []:
            conv.tools[decl["name"]] = decl.get("parametersJsonSchema") or decl.get("parameters")
    contents = body.get("contents") or []
    conv.text = strings_of([body.get("systemInstruction"), contents])
    for content in contents:
        parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
        if content.get("role", "user") == "user":
            results = [p["functionResponse"] for p in parts if "functionResponse" in p]
            text = "\n".join(p["text"] for p in parts if isinstance(p.get("text"), str))
            if results:
                conv.tool_result = json.dumps(results[-1].get("response"))
            elif text.strip():
                conv.prompt, conv.called, conv.tool_result = text, [], None
                conv.images = len([p for p in parts if str((p.get("inlineData") or {}).get("mimeType", ""))
                                   .startswith("image/")])
        else:
            conv.called += [p["functionCall"].get("name") for p in parts if "functionCall" in p]
            conv.tool_result = None
    return conv


def gemini_candidate(parts, finish=None):
    candidate = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    return candidate


USAGE = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}


def gemini_json_reply(body):
    """Side questions (next speaker, routing, loop checks) ask for JSON."""
    config = body.get("generationConfig") or {}
    if config.get("responseMimeType") != "application/json":
        return None
    schema = config.get("responseJsonSchema") or config.get("responseSchema") or {}
    return json.dumps(default_for_schema(schema))


def gemini_events(body, reply):
    pieces = chunks(reply.text)
    for piece in pieces[:-1]:
        yield None, {"candidates": [gemini_candidate([{"text": piece}])],
                     "usageMetadata": USAGE, "modelVersion": "canned"}
    last = [{"text": pieces[-1]}]
    if reply.tool is not None:
        last.append({"functionCall": {"name": reply.tool, "args": reply.arguments}})
    yield None, {"candidates": [gemini_candidate(last, "STOP")], "usageMetadata": USAGE,
                 "modelVersion": "canned"}


def gemini_response(body, reply):
    parts = [{"text": reply.text}]
    if reply.tool is not None:
        parts.append({"functionCall": {"name": reply.tool, "args": reply.arguments}})
    return {"candidates": [gemini_candidate(parts, "STOP")], "usageMetadata": USAGE,
            "modelVersion": "canned"}


# --- HTTP ------------------------------------------------------------------

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "palaver-model-server"

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("model-server: %s\n" % (fmt % args))

    def record(self, body):
        if self.server.log is None:
            return
        headers = {k: ("<redacted>" if k.lower() in ("authorization", "x-api-key",
                                                      "x-goog-api-key") else v)
                   for k, v in self.headers.items()}
        entry = {"method": self.command, "path": self.path, "headers": headers, "body": body}
        with log_lock:
            self.server.log.write(json.dumps(entry) + "\n")
            self.server.log.flush()

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            return None

    def send_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_events(self, events):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for name, data in events:
            text = ("event: %s\n" % name if name else "") + "data: %s\n\n" % json.dumps(data)
            raw = text.encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(raw), raw))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def not_found(self):
        self.send_json(404, {"error": {"type": "not_found_error", "code": 404,
                                       "message": "model-server: no route for %s %s"
                                       % (self.command, self.path)}})

    def do_GET(self):
        self.record(None)
        path = self.path.split("?")[0]
        if path.endswith("/models"):
            self.send_json(200, {"object": "list", "data": [], "models": []})
        else:
            self.not_found()

    def do_CONNECT(self):
        # set as HTTPS_PROXY, the server refuses (and logs) what would leave the machine
        self.record(None)
        self.send_json(403, {"error": {"message": "model-server: no way out to %s" % self.path}})
        self.close_connection = True

    def do_POST(self):
        body = self.read_body()
        self.record(body)
        if body is None:
            self.send_json(400, {"error": {"message": "model-server: the body is not JSON"}})
            return
        try:
            self.answer(self.path.split("?")[0], body)
        except (BrokenPipeError, ConnectionResetError):
            pass    # the agent hung up (it was stopped)

    def answer(self, path, body):
        script = self.server.script

        if path.endswith("/messages/count_tokens"):
            self.send_json(200, {"input_tokens": 10})
        elif path.endswith("/messages"):
            reply = script.reply(anthropic_conversation(body))
            if body.get("stream"):
                self.send_events(anthropic_events(body, reply))
            else:
                self.send_json(200, anthropic_message(body, reply))
        elif path.endswith("/responses"):
            json_text = responses_json_reply(body)
            if json_text is not None:
                reply = Reply(json_text)
            else:
                reply = script.reply(responses_conversation(body))
            if body.get("stream", True):
                self.send_events(responses_events(body, reply))
            else:
                self.send_json(200, responses_object(body, new_id("resp"), "completed",
                                                     responses_output(reply)))
        elif path.endswith(":countTokens"):
            self.send_json(200, {"totalTokens": 10})
        elif path.endswith(":streamGenerateContent") or path.endswith(":generateContent"):
            json_text = gemini_json_reply(body)
            if json_text is not None:
                reply = Reply(json_text)
            else:
                reply = script.reply(gemini_conversation(body))
            if path.endswith(":streamGenerateContent"):
                self.send_events(gemini_events(body, reply))
            else:
                self.send_json(200, gemini_response(body, reply))
        else:
            self.not_found()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # an agent stopped with a connection open is no error
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def load_script(path):
    if path is None:
        return Script([])
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return Script([(rule["prompt"], rule["reply"]) for rule in data.get("rules", [])])


def main():
    parser = argparse.ArgumentParser(description="A canned model for real agents, offline.")
    parser.add_argument("--port", type=int, default=0,
                        help="port on 127.0.0.1 (default: a free one); printed on stdout")
    parser.add_argument("--script", help="JSON file of extra prompt rules")
    parser.add_argument("--log", help="append every request (JSON lines) to this file")
    parser.add_argument("--verbose", action="store_true", help="log requests on stderr")
    args = parser.parse_args()

    server = Server(("127.0.0.1", args.port), Handler)
    server.script = load_script(args.script)
    server.log = open(args.log, "a", encoding="utf-8") if args.log else None
    server.verbose = args.verbose
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
