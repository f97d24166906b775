"""The local chat-completions endpoint (tests/local_llm.py) with the real SmolLM2-135M model:
plain answers, JSON-schema constrained answers in English and Chinese, max_tokens, injected
failures, bad requests, and a clean stop."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from local_llm import MODEL_NAME, LocalLLM, start_local_llm

GRAPH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "entities": {
            "type": "array",
            "maxItems": 3,
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "maxLength": 30},
                    "type": {
                        "type": "string",
                        "enum": ["person", "organization", "place", "other"],
                    },
                },
                "required": ["name", "type"],
                "additionalProperties": False,
            },
        },
        "facts": {
            "type": "array",
            "maxItems": 2,
            "items": {
                "type": "object",
                "properties": {
                    "subject": {"type": "string", "maxLength": 30},
                    "predicate": {"type": "string", "maxLength": 30},
                    "object": {"type": "string", "maxLength": 30},
                },
                "required": ["subject", "predicate", "object"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["entities", "facts"],
    "additionalProperties": False,
}

# nested objects, nullable fields (both spellings), integers, booleans, const, $ref
PROFILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 20},
        "age": {"type": "integer"},
        "happy": {"type": "boolean"},
        "city": {"type": ["string", "null"]},
        "nickname": {"anyOf": [{"type": "string", "enum": ["Bobby", "B"]}, {"type": "null"}]},
        "home": {"$ref": "#/$defs/Home"},
    },
    "required": ["name", "age", "happy", "city", "nickname", "home"],
    "additionalProperties": False,
    "$defs": {
        "Home": {
            "type": "object",
            "properties": {
                "country": {"type": "string", "const": "France"},
                "kind": {"type": "string", "enum": ["flat", "house"]},
            },
            "required": ["country", "kind"],
            "additionalProperties": False,
        }
    },
}

EXTRACT = (
    "Extract a knowledge graph from the user's text. Answer with JSON: the entities (each "
    "with its name and type) and the facts (subject, predicate, object) that the text states."
)


def validate(
    value: Any, schema: dict[str, Any], root: dict[str, Any], path: str = "$"
) -> list[str]:
    """Where `value` breaks `schema`, for the keywords the schemas above use."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in schema:
        if any(not validate(value, option, root, path) for option in schema["anyOf"]):
            return []
        return [f"{path}: matches no anyOf option"]
    errors: list[str] = []
    types = schema.get("type")
    types = types if isinstance(types, list) else [types] if types else []
    python = {
        "object": dict,
        "array": list,
        "string": str,
        "integer": int,
        "number": (int, float),
        "boolean": bool,
        "null": type(None),
    }
    if types and not any(
        isinstance(value, python[t])
        and not (t in ("integer", "number") and isinstance(value, bool))
        for t in types
    ):
        return [f"{path}: {value!r} is not {types}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} is not {schema['const']!r}")
    if isinstance(value, str) and len(value) > schema.get("maxLength", len(value)):
        errors.append(f"{path}: longer than {schema['maxLength']}")
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            errors.append(f"{path}: more than {schema['maxItems']} items")
        for i, item in enumerate(value):
            errors += validate(item, schema.get("items", {}), root, f"{path}[{i}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        errors += [f"{path}: {k} missing" for k in schema.get("required", []) if k not in value]
        if schema.get("additionalProperties") is False:
            errors += [f"{path}: {k} not allowed" for k in value if k not in properties]
        for key, item in value.items():
            if key in properties:
                errors += validate(item, properties[key], root, f"{path}.{key}")
    return errors


@pytest.fixture(scope="module")
def llm() -> Iterator[LocalLLM]:
    server = start_local_llm()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def client(llm: LocalLLM) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=llm.base_url, timeout=120) as http:
        yield http


def chat(client: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = client.post("/chat/completions", json={"model": MODEL_NAME, **body})
    assert answer.status_code == 200, answer.text
    return answer.json()


def schema_format(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": schema, "strict": True},
    }


def test_models_lists_the_model(llm: LocalLLM, client: httpx.Client) -> None:
    assert llm.base_url.endswith("/v1")
    assert llm.model == MODEL_NAME
    listed = client.get("/models").json()
    assert [m["id"] for m in listed["data"]] == [MODEL_NAME]


def test_plain_chat_answers_text(client: httpx.Client) -> None:
    answer = chat(
        client,
        messages=[{"role": "user", "content": "What is the capital of France?"}],
        max_tokens=30,
    )
    assert answer["object"] == "chat.completion"
    assert answer["model"] == MODEL_NAME
    assert answer["id"].startswith("chatcmpl-") and isinstance(answer["created"], int)
    (choice,) = answer["choices"]
    assert choice["index"] == 0 and choice["message"]["role"] == "assistant"
    assert choice["finish_reason"] == "stop"
    assert "Paris" in choice["message"]["content"]
    usage = answer["usage"]
    assert usage["prompt_tokens"] > 0 and 0 < usage["completion_tokens"] <= 30
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


@pytest.mark.parametrize(
    "text",
    ["Alice works at Acme in Paris.", "张伟在北京的清华大学工作。"],
    ids=["english", "chinese"],
)
def test_schema_answer_is_json_of_the_schema(client: httpx.Client, text: str) -> None:
    answer = chat(
        client,
        messages=[{"role": "system", "content": EXTRACT}, {"role": "user", "content": text}],
        max_tokens=256,
        response_format=schema_format(GRAPH_SCHEMA),
    )
    choice = answer["choices"][0]
    assert choice["finish_reason"] == "stop"
    graph = json.loads(choice["message"]["content"])
    assert validate(graph, GRAPH_SCHEMA, GRAPH_SCHEMA) == []
    assert graph["entities"], graph
    # the names come from the text, whatever the model makes of their types
    assert any(entity["name"] in text for entity in graph["entities"]), graph


def test_schema_with_nested_and_nullable_fields(client: httpx.Client) -> None:
    answer = chat(
        client,
        messages=[
            {"role": "system", "content": "Answer with JSON about the person in the text."},
            {"role": "user", "content": "Bob is 31, lives in a flat in Paris and is happy."},
        ],
        max_tokens=120,
        response_format=schema_format(PROFILE_SCHEMA),
    )
    choice = answer["choices"][0]
    assert choice["finish_reason"] == "stop"
    profile = json.loads(choice["message"]["content"])
    assert validate(profile, PROFILE_SCHEMA, PROFILE_SCHEMA) == []
    # keys come in the order of `required`
    assert list(profile) == PROFILE_SCHEMA["required"]


def test_max_tokens_truncates(client: httpx.Client) -> None:
    for extra in ({}, {"response_format": schema_format(GRAPH_SCHEMA)}):
        answer = chat(
            client,
            messages=[{"role": "user", "content": "Write a long story about a dragon."}],
            max_tokens=5,
            **extra,
        )
        assert answer["choices"][0]["finish_reason"] == "length"
        assert answer["usage"]["completion_tokens"] == 5
        assert answer["choices"][0]["message"]["content"]


def test_fail_next_answers_the_status(llm: LocalLLM, client: httpx.Client) -> None:
    before = llm.requests
    llm.fail_next(2, status=503)
    llm.fail_next(1, status=429)
    body = {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 2}
    statuses = [client.post("/chat/completions", json=body) for _ in range(4)]
    assert [r.status_code for r in statuses] == [503, 503, 429, 200]
    error = statuses[0].json()["error"]
    assert error["type"] == "server_error" and "503" in error["message"]
    assert statuses[2].json()["error"]["type"] == "rate_limit_error"
    assert llm.requests == before + 4


@pytest.mark.parametrize(
    "body",
    [
        {"messages": []},
        {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 0},
        {"messages": [{"role": "user", "content": "Hi"}], "response_format": {"type": "xml"}},
        {"messages": [{"role": "user", "content": "Hi"}], "stream": True},
        {
            "messages": [{"role": "user", "content": "Hi"}],
            "response_format": schema_format(
                {"type": "object", "properties": {"x": {"type": "date"}}, "required": ["x"]}
            ),
        },
    ],
    ids=["no-messages", "zero-max-tokens", "unknown-format", "stream", "unreadable-schema"],
)
def test_bad_requests_are_400(client: httpx.Client, body: dict[str, Any]) -> None:
    answer = client.post("/chat/completions", json=body)
    assert answer.status_code == 400
    assert answer.json()["error"]["type"] == "invalid_request_error"


def test_unknown_model_is_404(client: httpx.Client) -> None:
    body = {"model": "gpt-9", "messages": [{"role": "user", "content": "Hi"}]}
    assert client.post("/chat/completions", json=body).status_code == 404


def test_stop_frees_the_port(llm: LocalLLM) -> None:
    other = start_local_llm()
    assert other.port != llm.port
    assert httpx.get(f"{other.base_url}/models", timeout=10).status_code == 200
    other.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{other.base_url}/models", timeout=10)
