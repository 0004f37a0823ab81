#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# tests/rst-check.py FILE...: each reStructuredText file parses with
# docutils without a warning or an error. The kernel's Sphinx directive
# kernel-doc (Documentation/bfly.rst) is known here and takes its
# arguments unread. Prints one line a problem; exits 1 when there is one.
import sys

from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives


class KernelDoc(Directive):
    """The kernel's kernel-doc directive, which only Sphinx renders."""
    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = True
    option_spec = {"identifiers": directives.unchanged,
                   "internal": directives.flag,
                   "export": directives.flag,
                   "functions": directives.unchanged,
                   "doc": directives.unchanged}
    has_content = False

    def run(self):
        return []


directives.register_directive("kernel-doc", KernelDoc)
bad = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = publish_doctree(text, source_path=path,
                          settings_overrides={"report_level": 5, "halt_level": 5})
    for msg in doc.findall(lambda n: n.tagname == "system_message"):
        if msg["level"] >= 2:
            bad += 1
            print(msg.astext().splitlines()[0])
sys.exit(1 if bad else 0)
