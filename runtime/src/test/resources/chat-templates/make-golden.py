#!/usr/bin/env python3
"""Writes the golden outputs of the chat-template cases with real jinja2 (3.1.6 when they were made).

Jinja2 is set up exactly as transformers' ``apply_chat_template`` sets it up (``_compile_jinja_template`` and
``render_jinja_template`` in ``transformers/utils/chat_template_utils.py``): an ``ImmutableSandboxedEnvironment``
with ``trim_blocks``, ``lstrip_blocks`` and the ``loopcontrols`` extension, the ``generation`` tag, a ``tojson`` filter
that is ``json.dumps(ensure_ascii=False, ...)``, and the globals ``raise_exception`` and ``strftime_now``. The one
deliberate difference is the clock: ``strftime_now`` reads a frozen ``FROZEN_NOW`` so the goldens are stable; the
Java test uses the same instant.

Each ``cases/NAME.json`` names a template in ``templates/`` and holds the inputs. The script writes
``golden/NAME.txt`` with the rendered prompt (UTF-8, byte for byte), or ``golden/NAME.error`` with the message of the
``TemplateError`` a ``raise_exception`` call raised. Run it from anywhere: ``python3 make-golden.py``.
"""
import json
import pathlib
import sys
from datetime import datetime

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = pathlib.Path(__file__).resolve().parent
FROZEN_NOW = datetime(2026, 11, 22, 9, 5, 7)  # the Java test's Clock: 2026-11-22T09:05:07Z read in UTC


class AssistantTracker(Extension):
    """The ``{% generation %}`` tag as transformers defines it; without a mask to fill it renders its body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render_assistant", []), [], [], body).set_lineno(lineno)

    def _render_assistant(self, caller):
        return caller()


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    # transformers overrides jinja's tojson, which would escape HTML characters
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def strftime_now(format):
    return FROZEN_NOW.strftime(format)


def environment():
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[AssistantTracker, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def continue_final_message(rendered, messages):
    """transformers' cut after the final message's content (render_jinja_template, continue_final_message)."""
    final_message = messages[-1]["content"]
    if isinstance(final_message, (list, tuple)):
        for block in reversed(final_message):
            if "text" in block:
                final_message = block["text"]
                break
        else:
            raise ValueError("continue_final_message is set but we could not find any text to continue in the final message!")
    if final_message.strip() not in rendered:
        raise ValueError("continue_final_message is set but the final message does not appear in the chat after "
                         "applying the chat template!")
    final_msg_loc = rendered.rindex(final_message.strip())
    if rendered[final_msg_loc:final_msg_loc + len(final_message.lstrip())] == final_message:
        return rendered[:final_msg_loc + len(final_message.lstrip())]
    return rendered[:final_msg_loc + len(final_message.strip())]


def render(env, case):
    template = env.from_string((HERE / "templates" / case["template"]).read_text(encoding="utf-8"))
    add_generation_prompt = case.get("add_generation_prompt", False)
    cont = case.get("continue_final_message", False)
    if cont and add_generation_prompt:
        raise ValueError("continue_final_message and add_generation_prompt are not compatible.")
    # apply_chat_template: template_kwargs = {**special_tokens_map, **kwargs}; render(messages=, tools=, documents=,
    # add_generation_prompt=, **template_kwargs)
    kwargs = {**case.get("special_tokens", {}), **case.get("kwargs", {})}
    rendered = template.render(messages=case["messages"], tools=case.get("tools"), documents=case.get("documents"),
                               add_generation_prompt=add_generation_prompt, **kwargs)
    return continue_final_message(rendered, case["messages"]) if cont else rendered


def main():
    env = environment()
    golden = HERE / "golden"
    golden.mkdir(exist_ok=True)
    for old in golden.iterdir():
        old.unlink()
    for path in sorted((HERE / "cases").glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        try:
            (golden / (path.stem + ".txt")).write_bytes(render(env, case).encode("utf-8"))
        except jinja2.exceptions.TemplateError as e:
            (golden / (path.stem + ".error")).write_bytes(str(e).encode("utf-8"))
        print(path.stem, file=sys.stderr)
    print(f"jinja2 {jinja2.__version__}: {len(list(golden.iterdir()))} golden files", file=sys.stderr)


if __name__ == "__main__":
    main()
