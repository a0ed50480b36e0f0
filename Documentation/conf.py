# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration of the vgpu-dispatch documentation (`make htmldocs`,
# Debian's python3-sphinx; output in build/htmldocs).
#
# The kernel-doc comments of the headers are rendered with the kernel's own
# tooling, Documentation/sphinx/kerneldoc.py and scripts/kernel-doc, taken
# at build time from the kernel source scripts/kernel-src.sh unpacks (or
# from $VGPU_KSRC); nothing of it is copied into this tree.  kernel-doc runs
# with KDOC_WERROR=1, so a kernel-doc warning fails the build like any
# Sphinx warning under `sphinx-build -W`.

import os
import subprocess
import sys

top = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ksrc = os.environ.get("VGPU_KSRC") or subprocess.run(
    [os.path.join(top, "scripts", "kernel-src.sh")],
    check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
sys.path.insert(0, os.path.join(ksrc, "Documentation", "sphinx"))
os.environ["KDOC_WERROR"] = "1"

project = "vgpu-dispatch"
copyright = "the vgpu-dispatch authors"
version = "0.1.0"
release = version

extensions = ["kerneldoc"]
kerneldoc_bin = os.path.join(ksrc, "scripts", "kernel-doc")
kerneldoc_srctree = top
primary_domain = "c"
c_id_attributes = ["__user", "__packed", "__aligned", "__must_check",
                   "__printf", "__always_inline", "__maybe_unused"]

master_doc = "index"
source_suffix = ".rst"
exclude_patterns = ["man", "netlink", "images"]
highlight_language = "none"
html_theme = "alabaster"
html_static_path = []
html_show_sourcelink = False
