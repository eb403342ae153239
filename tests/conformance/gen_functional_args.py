"""Reads off PyTorch 1.13 how each torch.nn.functional function written in Python hands its
arguments to __torch_function__ (which is what torch.fx records), by calling it with objects
that override __torch_function__, and prints the SIGNATURES table of
core/trace/torch_fx/_functional_args.py. Run with /usr/bin/python3:

    /usr/bin/python3 tests/conformance/gen_functional_args.py
"""
import inspect

import torch.nn.functional as F

WIDTH = 99


class Marker:
    """Stands for one parameter; the first one __torch_function__ sees stops the call."""

    def __init__(self, name):
        self.name = name

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        raise Dispatched(func, args, kwargs or {})


class Dispatched(Exception):
    def __init__(self, func, args, kwargs):
        super().__init__()
        self.func, self.call_args, self.call_kwargs = func, args, kwargs


def convention(name):
    """(number passed positionally, parameters) or None when fn is not a Python function
    that dispatches all its parameters, in order."""
    fn = getattr(F, name)
    target = fn
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        # boolean_dispatch: the return_indices=False function records the public name
        target = getattr(F, "_" + name, None)
        if target is None:
            return None
        params = list(inspect.signature(target).parameters.values())
    try:
        target(**{p.name: Marker(p.name) for p in params})
        return None
    except Dispatched as d:
        passed = list(d.call_args) + list(d.call_kwargs.values())
        if d.func is not fn or not all(isinstance(v, Marker) for v in passed):
            return None
        order = [v.name for v in passed]
        if order != [p.name for p in params] or list(d.call_kwargs) != order[len(d.call_args):]:
            return None
        return len(d.call_args), [p.name if p.default is p.empty else (p.name, p.default)
                                  for p in params]
    except Exception:
        return None


def format_row(name, n, params):
    items = [repr(n)] + [repr(p) for p in params]
    line = f"    {name!r}: ({', '.join(items)}),"
    if len(line) <= WIDTH:
        return [line]
    lines, cur = [], f"    {name!r}: ({items[0]},"
    for item in items[1:]:
        if len(cur) + len(item) + 2 > WIDTH:
            lines.append(cur)
            cur = "        " + item + ","
        else:
            cur += " " + item + ","
    lines.append(cur[:-1] + "),")
    return lines


def main():
    for name in sorted(dir(F)):
        if name.startswith("_") or not inspect.isfunction(getattr(F, name)):
            continue
        found = convention(name)
        if found is not None:
            print("\n".join(format_row(name, *found)))


if __name__ == "__main__":
    main()
