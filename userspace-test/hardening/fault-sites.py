#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the fault sweep failed every allocation and user copy.

    fault-sites.py MODULE.ko... CONSOLE.log
    fault-sites.py --list MODULE.ko...      the call sites, one a line

The call sites come from the modules themselves (utfconv.ko and
utfconv_dev.ko): every call in their .text
(not .init.text or .exit.text) to an allocator or to a function that
copies from or to userspace, named by its return address as a kernel
stack trace shows it, "function+0xoffset". The hits are the
"# fault site: function+0xoffset attr ops hits N" lines that
utfconv_hardening fault printed from the stack traces of the injected
faults. Prints both lists side by side; exits 1 if a call site was
never failed.
"""
import re
import subprocess
import sys

# Functions whose failure fault injection can force: slab and page
# allocators (failslab, fail_page_alloc), the xarray calls that allocate
# its nodes (failslab) and user copies (fail_usercopy;
# copy_to_iter()/copy_from_iter() call _copy_to_iter()/_copy_from_iter(),
# whose user copies check it too).
TARGET = re.compile(
    r'^(__)?(kmalloc|kvmalloc|kzalloc|kcalloc|krealloc|kmemdup|kmem_cache_alloc'
    r'|vmalloc|vzalloc|__vmalloc|alloc_pages|get_free_pages|get_zeroed_page'
    r'|memdup_user|vmemdup_user|strndup_user|kmalloc_large|kmalloc_cache'
    r'|kvmalloc_node|kmalloc_node'
    r'|xa_store|xa_insert|xa_cmpxchg|xa_alloc|xa_alloc_cyclic|xa_reserve)'
    r'|^_?_copy_(from|to)_user$|^_copy_(from|to)_iter$'
    r'|^__kfifo_(to|from)_user(_r)?$'
    r'|^strncpy_from_user$|^copy_from_user_nofault$')
KIND = [(re.compile(r'copy|kfifo_(to|from)_user|strncpy'), 'user copy'),
        (re.compile(r'.'), 'allocation')]


def call_sites(ko):
    """{function+0xoffset: callee} for the calls of interest in ko."""
    dis = subprocess.run(['objdump', '-dr', '--no-show-raw-insn', ko],
                         check=True, capture_output=True, text=True).stdout
    sites = {}
    section = fn = None
    start = 0
    pending = None  # callee of the last call, waiting for the next insn
    last_call = False
    for line in dis.splitlines():
        m = re.match(r'^Disassembly of section (\S+):', line)
        if m:
            section, fn, pending = m.group(1), None, None
            continue
        m = re.match(r'^([0-9a-f]+) <([^>]+)>:$', line)
        if m:
            fn, start = m.group(2), int(m.group(1), 16)
            pending = None
            continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(\S.*)$', line)
        if not m or fn is None:
            continue
        addr, rest = int(m.group(1), 16), m.group(2)
        if rest.startswith('R_X86_64_'):
            callee = rest.split()[1]
            callee = re.sub(r'[-+]0x[0-9a-f]+$', '', callee)
            if last_call and TARGET.search(callee):
                pending = callee
            continue
        if pending and section.startswith('.text'):
            sites['%s+0x%x' % (fn, addr - start)] = pending
        pending = None
        last_call = rest.split()[0] in ('call', 'callq')
    return sites


def all_call_sites(kos):
    """call_sites() of every module in kos together."""
    sites = {}
    for ko in kos:
        sites.update(call_sites(ko))
    return sites


def main():
    if sys.argv[1] == '--list':
        for where, callee in sorted(all_call_sites(sys.argv[2:]).items()):
            print(where, callee)
        return 0
    kos, log = sys.argv[1:-1], sys.argv[-1]
    ko = ' '.join(k.split('/')[-1] for k in kos)
    sites = all_call_sites(kos)
    hits = {}
    with open(log, errors='replace') as f:
        for line in f:
            m = re.search(r'# fault site: (\S+) (\S+) (\S+) hits (\d+)', line)
            if m:
                hits[m.group(1)] = (m.group(2), m.group(3), int(m.group(4)))
    missed = 0
    for where in sorted(sites):
        callee = sites[where]
        kind = next(k for r, k in KIND if r.search(callee))
        if where in hits:
            attr, ops, n = hits[where]
            print('fault-sites: %-34s %-24s %-10s failed %4d times (%s; %s)'
                  % (where, callee, kind, n, attr, ops))
        else:
            print('fault-sites: %-34s %-24s %-10s NEVER FAILED'
                  % (where, callee, kind))
            missed += 1
    extra = sorted(set(hits) - set(sites))
    for where in extra:
        attr, ops, n = hits[where]
        print('fault-sites: %-34s (not a listed call) failed %d times (%s; %s)'
              % (where, n, attr, ops))
    allocs = sum(1 for c in sites.values() if not re.search(r'copy|kfifo|strncpy', c))
    print('fault-sites: %d call sites in %s (%d allocations, %d user copies); '
          '%d distinct fault sites hit, %d of the call sites never failed'
          % (len(sites), ko, allocs, len(sites) - allocs,
             len(hits), missed))
    if not sites:
        print('fault-sites: FAIL: no call sites found in %s' % ko)
        return 1
    return 1 if missed else 0


if __name__ == '__main__':
    sys.exit(main())
