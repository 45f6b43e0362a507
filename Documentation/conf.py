# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration of utfconv's Documentation/, built by scripts/docs.sh
# (`make docs`). The kernel-doc directive comes from a Linux 6.12 tree:
# UTFCONV_LINUX_TREE names it (scripts/docs.sh sets it to the cached
# pristine tree); kernel-doc comments are read relative to the project root.

import os
import sys

import sphinx

_here = os.path.dirname(os.path.abspath(__file__))
_root = os.path.dirname(_here)
_tree = os.environ.get('UTFCONV_LINUX_TREE')
if not _tree or not os.path.isfile(os.path.join(_tree, 'scripts',
                                                'kernel-doc')):
    raise RuntimeError('set UTFCONV_LINUX_TREE to a Linux 6.12 source tree '
                       '(scripts/docs.sh does)')

sys.path.insert(0, os.path.join(_tree, 'Documentation', 'sphinx'))

project = 'utfconv'
copyright = 'The utfconv developers'
author = 'The utfconv developers'
release = '1.0'

extensions = ['kerneldoc']
kerneldoc_bin = os.path.join(_tree, 'scripts', 'kernel-doc')
kerneldoc_srctree = _root
kerneldoc_verbosity = 0

master_doc = 'index'
root_doc = 'index'
exclude_patterns = ['output']
primary_domain = 'c'
highlight_language = 'none'
html_theme = 'alabaster'
html_static_path = []
# The UAPI macros the pages refer to are documented as c:macro by the pages
# themselves or not at all; do not warn about the latter.
nitpicky = False
