"""Synthetic content for benchmarks: N realistic records in the real format, deterministic per seed.

    .venv/bin/python bench/generate.py N OUT_DIR [--seed S]

Writes OUT_DIR/entries/<id>.yml, OUT_DIR/categories.yml, OUT_DIR/tags.yml and a copy of every
other content/*.yml file. Records recombine the text of the real entries in content/entries/
(their titles, symptoms, steps, commands) with vocabulary of libraries, versions and error
messages, so the corpus has the mix of Chinese, English, error text and code of real records,
in varied lengths. The output passes `python -m pitfalls check --content OUT_DIR`.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"

LIBRARIES = ["PyTorch", "TensorFlow", "JAX", "transformers", "vLLM", "DeepSpeed", "Accelerate",
             "bitsandbytes", "ONNX Runtime", "TensorRT", "NCCL", "Triton", "xformers", "FlashAttention",
             "LangChain", "FAISS", "Ray", "Horovod", "cuDNN", "Megatron-LM", "PEFT", "llama.cpp",
             "Docker", "Kubernetes", "conda", "pip", "uv", "Jupyter", "SSH", "Git LFS"]
SUBJECTS_ZH = ["多卡训练", "混合精度", "分布式推理", "数据加载", "模型导出", "量化", "微调", "检索增强",
               "容器部署", "依赖安装", "远程开发", "断点续训", "日志监控", "显存管理", "梯度累积"]
SUBJECTS_EN = ["multi-GPU training", "mixed precision", "distributed inference", "data loading",
               "model export", "quantization", "fine-tuning", "retrieval augmentation",
               "container deployment", "dependency install", "remote development",
               "resuming from checkpoints", "log monitoring", "GPU memory management",
               "gradient accumulation"]
ERRORS = [
    "RuntimeError: CUDA error: device-side assert triggered",
    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
    "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled system error",
    "ImportError: libcudart.so.{major}: cannot open shared object file: No such file or directory",
    "ModuleNotFoundError: No module named '{module}'",
    "ValueError: Tokenizer class {cls}Tokenizer does not exist or is not currently imported.",
    "OSError: [Errno 28] No space left on device",
    "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.",
    "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].",
    "Killed (exit code 137)",
    "Segmentation fault (core dumped)",
    "KeyError: 'model.layers.{layer}.self_attn.q_proj.weight'",
    "AssertionError: Torch not compiled with CUDA enabled",
    "fatal: refusing to merge unrelated histories",
    "torch.cuda.OutOfMemoryError: Tried to allocate {mib} MiB (GPU 0; {gib} GiB total capacity)",
    "TypeError: forward() got an unexpected keyword argument '{arg}'",
]
MODULES = ["flash_attn", "triton", "apex", "bitsandbytes", "peft", "sentencepiece", "tiktoken", "faiss"]
CLASSES = ["Llama", "Qwen2", "Mistral", "Baichuan", "ChatGLM", "Gemma"]
ARGS = ["use_cache", "attn_implementation", "past_key_values", "labels", "return_dict"]
COMMANDS = [
    "nvidia-smi --query-gpu=memory.used,memory.total --format=csv",
    "python -c \"import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())\"",
    "pip install --no-cache-dir {module}=={version}",
    "conda install -c conda-forge {module}",
    "export CUDA_VISIBLE_DEVICES=0,1",
    "export NCCL_DEBUG=INFO NCCL_P2P_DISABLE=1",
    "torchrun --nproc_per_node={gpus} train.py --config configs/{module}.yaml",
    "docker run --rm --gpus all -v $PWD:/workspace nvcr.io/nvidia/pytorch:24.0{minor}-py3 nvidia-smi",
    "df -h /tmp && du -sh ~/.cache/huggingface",
    "git lfs install && git lfs pull",
    "ulimit -n 65535",
    "watch -n 1 nvidia-smi",
]
ENVIRONMENTS = {
    "os": ["Ubuntu 22.04", "Ubuntu 20.04", "CentOS 7", "Windows 11 + WSL2", "macOS 14"],
    "gpu": ["A100 80GB", "RTX 4090", "V100 32GB", "H100", "RTX 3090", "T4"],
    "driver": ["535.104", "550.54", "470.182"],
    "cuda": ["11.8", "12.1", "12.4"],
    "python": ["3.10", "3.11", "3.12"],
    "frameworks": ["torch 2.1", "torch 2.3 + transformers 4.41", "vllm 0.4.2", "tensorflow 2.15"],
}
LINK_HOSTS = ["https://pytorch.org/docs/stable/", "https://huggingface.co/docs/transformers/",
              "https://docs.nvidia.com/cuda/", "https://github.com/pytorch/pytorch/issues/"]


def real_entries() -> list[dict]:
    """The real records, as plain data: the vocabulary the synthetic ones recombine."""
    return [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((CONTENT / "entries").glob("*.yml"))]


class Generator:
    """Builds records from the real entries' text pools with a seeded random source."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        entries = real_entries()
        self.titles = [e["title"] for e in entries]
        self.quick_fixes = [e["quick_fix"] for e in entries]
        self.symptoms = [s for e in entries for s in e["symptoms"]]
        self.steps = [s for e in entries for s in e["steps"]]
        self.causes = [e["cause"] for e in entries if "cause" in e] + [e["quick_fix"] for e in entries]
        # the keywords of every real entry, the corpora's too: a keyword names one entry, and drawn from the seed
        # entries' 144 alone each would be in hundreds of records, with posting lists no real wiki's keywords have
        written = entries + [_read(path) for path in sorted(ROOT.glob("bench/corpus*/entries/*.yml"))]
        self.keywords = {lang: sorted({w for e in written for w in e.get("keywords", {}).get(lang, [])}) for lang in ("zh", "en")}
        # keywords draw from a source of their own: the records are the ones generated before records had keywords
        self.keyword_rng = random.Random(seed + 1)
        self.categories = list(_read(CONTENT / "categories.yml"))
        self.tags = list(_read(CONTENT / "tags.yml"))

    def fill(self, template: str) -> str:
        rng = self.rng
        return template.format(major=rng.choice([11, 12]), module=rng.choice(MODULES), cls=rng.choice(CLASSES),
                               layer=rng.randrange(80), mib=rng.randrange(64, 8192), gib=rng.choice([16, 24, 40, 80]),
                               arg=rng.choice(ARGS), version=f"{rng.randrange(0, 3)}.{rng.randrange(0, 40)}.{rng.randrange(0, 9)}",
                               minor=rng.randrange(1, 10), gpus=rng.choice([2, 4, 8]))

    def record(self, record_id: str, number: int, earlier: list[str]) -> dict:
        rng = self.rng
        lib, subject = rng.choice(LIBRARIES), rng.randrange(len(SUBJECTS_ZH))
        base = rng.choice(self.titles)
        record: dict = {
            "id": record_id,
            "category": rng.choice(self.categories),
            "title": {"zh": f"{lib} {SUBJECTS_ZH[subject]}：{base['zh']}（{number}）",
                      "en": f"{lib} {SUBJECTS_EN[subject]}: {base['en']} ({number})"},
            "quick_fix": dict(rng.choice(self.quick_fixes)),
            "symptoms": self.symptom_list(),
            "steps": [self.step() for _ in range(rng.choice([1, 2, 3, 3, 4, 5, 6, 8, 12]))],
            "tags": rng.sample(self.tags, rng.randint(2, 5)),
        }
        if rng.random() < 0.5:
            record["cause"] = self.cause()
        if rng.random() < 0.4:
            keys = rng.sample(sorted(ENVIRONMENTS), rng.randint(1, 4))
            record["environment"] = {k: rng.choice(ENVIRONMENTS[k]) for k in sorted(keys)}
        if rng.random() < 0.3:
            record["verification"] = {"zh": "确认修复：", "en": "Confirm the fix:", "code": self.fill(rng.choice(COMMANDS))}
        if rng.random() < 0.3:
            record["references"] = [{"title": f"{lib} docs", "url": f"{rng.choice(LINK_HOSTS)}{rng.randrange(100000)}"}]
        if earlier and rng.random() < 0.3:
            record["related"] = rng.sample(earlier, min(len(earlier), rng.randint(1, 3)))
        if rng.random() < 0.5:
            record["last_verified"] = f"202{rng.randrange(3, 6)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
        if rng.random() < 0.05:
            record["aliases"] = [f"{record_id}-old"]
        if rng.random() < 0.1:  # some records are not translated yet
            for text in (record["title"], record["quick_fix"]):
                text.pop("en")
        if self.keyword_rng.random() < 0.6:  # most name other words for themselves, none their text says (docs/CONTENT.md)
            said = json.dumps(record, ensure_ascii=False).casefold()
            keywords = {lang: [w for w in self.keyword_rng.sample(pool, min(len(pool), self.keyword_rng.randint(3, 8)))
                               if w.casefold() not in said] for lang, pool in self.keywords.items()}
            if keywords := {lang: words for lang, words in keywords.items() if words}:
                record["keywords"] = keywords
        return record

    def symptom_list(self) -> list:
        rng = self.rng
        symptoms = [self.fill(rng.choice(ERRORS))]
        symptoms += [_copy(rng.choice(self.symptoms)) for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.1:  # a long, single-line traceback excerpt
            symptoms.append(" | ".join(self.fill(rng.choice(ERRORS)) for _ in range(rng.randint(5, 12))))
        rng.shuffle(symptoms)
        return symptoms

    def step(self) -> dict:
        rng = self.rng
        step = {k: v for k, v in _copy(rng.choice(self.steps)).items() if k != "code"}
        if rng.random() < 0.4:
            lines = [self.fill(rng.choice(COMMANDS)) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
            step["code"] = "\n".join(lines)
        return step

    def cause(self) -> dict:
        """One to three paragraphs, the same ones in each language."""
        chosen = [self.rng.choice(self.causes) for _ in range(self.rng.randint(1, 3))]
        return {lang: "\n\n".join(text.get(lang) or next(iter(text.values())) for text in chosen) for lang in ("zh", "en")}


def _copy(value):
    """A fresh copy, so the YAML dumper never writes anchors for shared objects."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _read(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def record_ids(count: int, rng: random.Random) -> list[str]:
    """`count` distinct slugs made of library and subject words, e.g. `vllm-quantization-0042`."""
    words = [w for w in sorted({part for name in LIBRARIES + SUBJECTS_EN
                                for part in name.lower().replace(".", "-").replace(" ", "-").split("-")}) if w.isalnum()]
    width = len(str(count))
    return [f"{rng.choice(words)}-{rng.choice(words)}-{n:0{width}d}" for n in range(count)]


class _NoAliasDumper(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True


def generate(count: int, out_dir: Path, seed: int = 0) -> list[Path]:
    """Write the synthetic content folder; returns the record files written."""
    gen = Generator(seed)
    entries_dir = out_dir / "entries"
    if entries_dir.exists():
        shutil.rmtree(entries_dir)
    entries_dir.mkdir(parents=True)
    for path in sorted(CONTENT.glob("*.yml")):
        shutil.copyfile(path, out_dir / path.name)
    ids = record_ids(count, gen.rng)
    written = []
    for number, record_id in enumerate(ids):
        record = gen.record(record_id, number, ids[max(0, number - 50):number])
        path = entries_dir / f"{record_id}.yml"
        path.write_text(yaml.dump(record, Dumper=_NoAliasDumper, allow_unicode=True, sort_keys=False, width=1000),
                        encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, help="number of records")
    parser.add_argument("out_dir", type=Path, help="content folder to write")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    written = generate(args.count, args.out_dir, args.seed)
    print(f"wrote {len(written)} records to {args.out_dir / 'entries'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
