# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration of the vgpu-dispatch documentation (`make htmldocs`,
# Debian's python3-sphinx; output in build/htmldocs).

project = "vgpu-dispatch"
copyright = "the vgpu-dispatch authors"
version = "0.1.0"
release = version

master_doc = "index"
source_suffix = ".rst"
exclude_patterns = ["man", "netlink", "images"]
highlight_language = "none"
html_theme = "alabaster"
html_static_path = []
html_show_sourcelink = False
