"""Python (pitfalls/text.py, what the index is made of) and JavaScript (static/assets/search/analysis.js, what the
engine reads queries with) analyse any text alike: a property test over generated text of Chinese, Latin letters
with digits, identifiers, punctuation, full-width forms and mixed scripts. A term one side makes and the other
does not is a word that can never be found, so the two must agree by construction, not on a few examples."""

from __future__ import annotations

import json
import shutil
import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

from pitfalls.settings import SEARCH_JS
from pitfalls.text import compound_terms, english_terms, message_key, normalize

PIECES = [
    st.text(alphabet="显存不足梯度爆炸訓練伺服器连接超时卡死數據加載進程的了吗", min_size=1, max_size=6),
    st.text(alphabet="abcdefxyz0123456789", min_size=1, max_size=12),
    st.text(alphabet="abcxyz", min_size=28, max_size=34),  # about the longest word kept (30 letters)
    st.text(alphabet="0123456789", min_size=3, max_size=6),  # about the longest number kept (4 digits)
    st.text(alphabet="ab.-_0", min_size=36, max_size=44),  # about the longest identifier kept (40 characters)
    st.sampled_from(["torch.load", "nvidia-smi", "max_model_len", "Qwen2-7B-Instruct", "2.3.0+cpu", "x86_64-linux-gnu",
                     "fail2ban", "0x7f3a2b1c", "550e8400-e29b-41d4-a716-446655440000", "OOMKilled", "BrokenPipeError",
                     "torch.cuda.is_available", "vllm.entrypoints.openai.api_server", "wrongly", "anomaly", "batch sizes"]),
    st.text(alphabet="ＡＢＣａｂｃ０１２．＿－：（）　", min_size=1, max_size=6),  # full-width forms
    st.text(alphabet=" .,:;_-/\\()[]{}<>'\"!?#@$%^&*+=|~`\t\n", min_size=1, max_size=4),
    # anything at all, emoji and combining marks included, of the characters Python's Unicode database has: node's
    # is newer (Unicode 17.0 in node 20.20, 14.0 in Python 3.11), and a script added since lower-cases in the browser
    # only (U+16EA3 → U+16EBE); the index cannot know such a character, so it is not searched for on either side
    st.text(st.characters(exclude_categories=("Cs", "Cn")), min_size=1, max_size=4),
]
TEXTS = st.lists(st.one_of(*PIECES), min_size=1, max_size=12).map("".join)


def _js(texts: list[str]) -> list[dict]:
    node = shutil.which("node")
    assert node, "node is needed: `make test` installs Debian's nodejs"
    script = """
        const a = require(process.argv[1]);
        const texts = JSON.parse(require("fs").readFileSync(0, "utf-8"));
        console.log(JSON.stringify(texts.map(t => {
          const n = a.normalize(t);
          return { normalized: n, terms: a.englishTerms(n), compounds: a.compounds(n).map(c => c.term), key: a.messageKey(t) };
        })));
    """
    done = subprocess.run([node, "-e", script, str(SEARCH_JS / "analysis.js")], input=json.dumps(texts), capture_output=True,
                          text=True, encoding="utf-8", check=True)
    return json.loads(done.stdout)


def _python(text: str) -> dict:
    normalized = normalize(text)
    return {"normalized": normalized, "terms": english_terms(normalized),
            "compounds": compound_terms(normalized),
            "key": message_key(text)}


@settings(max_examples=25, deadline=None)
@given(st.lists(TEXTS, min_size=40, max_size=40))
def test_python_and_js_analyse_any_text_alike(texts):
    assert _js(texts) == [_python(text) for text in texts]
