"""Which embedding model fits a run: the languages of its texts, the model a new simulation
takes when no one names one, and a recommendation.

A new simulation that neither it nor its tenant names a model for is embedded with the
model its run's languages call for (`choose`): the multilingual model for a run with
Chinese, Japanese or Korean text, the English model otherwise (measured: bench/README.md,
python -m bench.answers). A named model is never overridden: the import then prints the
recommendation, and an existing simulation moves to another model online with
`swarm-memory reembed`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from swarm_memory.embed import E5_MODEL_NAME, MODEL_NAME

# A text counts as CJK when at least this share of its letters are CJK characters.
CJK_SHARE = 0.3
# A run is "mixed" or "CJK" past this share of its texts: below it the English model is kept.
RECOMMEND_SHARE = 0.1

# Languages each model this package computes handles well (memory.embedding_models.languages
# says the same for the installation).
ENGLISH_ONLY = {MODEL_NAME}


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (
        0x4E00 <= o <= 0x9FFF  # CJK unified ideographs
        or 0x3400 <= o <= 0x4DBF  # extension A
        or 0x3040 <= o <= 0x30FF  # hiragana, katakana
        or 0xAC00 <= o <= 0xD7AF  # hangul syllables
        or 0xF900 <= o <= 0xFAFF  # compatibility ideographs
    )


def language(text: str) -> str:
    """'cjk', 'latin' or 'other' (no letters) for one text: CJK when CJK characters make at
    least CJK_SHARE of it, a CJK character counted as a word piece and four other letters as
    one (as the report chunks count them): "Helen Marsh 和谁结盟？" is Chinese."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "other"
    cjk = sum(1 for c in letters if _is_cjk(c))
    pieces = cjk + (len(letters) - cjk) / 4
    return "cjk" if cjk / pieces >= CJK_SHARE else "latin"


@dataclass(frozen=True)
class LanguageMix:
    texts: int
    cjk: int
    latin: int

    @property
    def cjk_share(self) -> float:
        counted = self.cjk + self.latin
        return self.cjk / counted if counted else 0.0


def language_mix(texts: Iterable[str]) -> LanguageMix:
    n = cjk = latin = 0
    for t in texts:
        if not t:
            continue
        n += 1
        lang = language(t)
        cjk += lang == "cjk"
        latin += lang == "latin"
    return LanguageMix(n, cjk, latin)


def choose(mix: LanguageMix) -> str:
    """The model for a new simulation that names none: the multilingual model when at least
    RECOMMEND_SHARE of its texts are CJK (the English model ranks Chinese posts barely above
    chance), the English model otherwise (faster, and better on English conversation)."""
    return E5_MODEL_NAME if mix.cjk_share >= RECOMMEND_SHARE else MODEL_NAME


def recommend(mix: LanguageMix, current: str) -> str | None:
    """A one-line recommendation when the run's languages and the model disagree, else None:
    CJK text under an English-only model, or a run all in Latin script under the multilingual
    model (all-MiniLM-L6-v2 ranks English better there: see bench/README.md, python -m bench.models)."""
    share = mix.cjk_share
    if current in ENGLISH_ONLY and share >= RECOMMEND_SHARE:
        return (
            f"{share:.0%} of this run's texts are Chinese, Japanese or Korean, and {current} is "
            f"an English model: consider {E5_MODEL_NAME} (multilingual; same-language and "
            f"cross-language search, see bench/README.md, python -m bench.models): "
            f"`swarm-memory reembed --tenant T --model {E5_MODEL_NAME}` for this simulation, "
            f"memory.set_tenant_model() for the tenant's new ones"
        )
    if current == E5_MODEL_NAME and mix.cjk + mix.latin >= 20 and share == 0:
        return (
            f"this run's texts are all in Latin script: {MODEL_NAME} ranks English at least as "
            f"well and embeds faster; consider `swarm-memory reembed --model {MODEL_NAME}`"
        )
    return None
