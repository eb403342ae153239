"""Goldens for libfx's IR: each case is a list of Graph API steps that this script replays on
torch.fx 1.13 and test-graph-golden.c replays on libfx; the outputs (generated code, print(graph),
print_tabular, errors) must be identical. Run with /usr/bin/python3 (Debian's PyTorch 1.13):

    cd tests/conformance && /usr/bin/python3 gen_graphs.py

Steps (JSON lists):
  ["placeholder", target, {"type": T, "default": v}]      ["get_attr", qualname, {"type": T}]
  ["call_function", path, [args], {kwargs}, {"name": n, "type": T, "wrapped": true}]
  ["call_method", method, [args], {kwargs}, opts]         ["call_module", target, [args], {kwargs}, opts]
  ["output", v, {"type": T}]
  ["inserting_before", name|null]  ["inserting_after", name|null]  ["restore_insert"]
  ["erase", name]  ["replace_all_uses_with", old, new]  ["replace_all_uses_with_except", old, new, skip]
  ["replace_input_with", node, old, new]  ["update_arg", node, i, v]  ["update_kwarg", node, k, v]
  ["set_args", node, [args]]  ["set_kwargs", node, {kwargs}]  ["prepend", node, x]  ["append", node, x]
  ["dce"]  ["deepcopy"]  ["lint"]  ["node_copy", name]  (copies a node at the insert point, same args)
Values use golden_encode's encoding plus {"node": name}. Types are strings naming types
(torch.Tensor, int, float, bool, str).
"""
import builtins
import copy
import json
import math
import operator
import re

import torch
import torch.fx
from torch.fx.node import _get_qualified_name

from golden_encode import encode

TYPES = {"torch.Tensor": torch.Tensor, "int": int, "float": float, "bool": bool, "str": str}


def resolve(path):
    if "." not in path:
        return getattr(builtins, path)
    mod, _, name = path.rpartition(".")
    root = {"operator": operator, "math": math, "torch": torch}[mod.split(".")[0]]
    obj = root
    for part in mod.split(".")[1:]:
        obj = getattr(obj, part)
    return getattr(obj, name)


def decode(v, nodes):
    if isinstance(v, dict):
        if "node" in v:
            return nodes[v["node"]]
        if "tuple" in v:
            return tuple(decode(x, nodes) for x in v["tuple"])
        if "list" in v:
            return [decode(x, nodes) for x in v["list"]]
        if "dict" in v:
            return {decode(k, nodes): decode(x, nodes) for k, x in v["dict"]}
        if "str" in v:
            return v["str"]
        if "slice" in v:
            return slice(*(decode(x, nodes) for x in v["slice"]))
        if "ellipsis" in v:
            return Ellipsis
        if "dtype" in v:
            return getattr(torch, v["dtype"])
        if "float" in v:
            return float(v["float"])
        if "size" in v:
            return torch.Size(v["size"])
        raise ValueError(v)
    return v


def mask(s):
    return re.sub(r" at 0x[0-9a-f]+", " at 0x?", s)


def run_steps_on(steps):
    """Replays steps on a new torch.fx Graph; returns (graph, errors)."""
    g = torch.fx.Graph()
    nodes = {}
    insert_stack = []
    errors = []
    for i, step in enumerate(steps):
        kind = step[0]
        try:
            if kind == "placeholder":
                opts = step[2] if len(step) > 2 else {}
                kw = {}
                if "default" in opts:
                    kw["default_value"] = decode(opts["default"], nodes)
                n = g.placeholder(step[1], type_expr=TYPES.get(opts.get("type")), **kw)
            elif kind == "get_attr":
                opts = step[2] if len(step) > 2 else {}
                n = g.get_attr(step[1], type_expr=TYPES.get(opts.get("type")))
            elif kind in ("call_function", "call_method", "call_module"):
                target = resolve(step[1]) if kind == "call_function" else step[1]
                args = tuple(decode(a, nodes) for a in step[2])
                kwargs = {k: decode(v, nodes) for k, v in step[3].items()}
                opts = step[4] if len(step) > 4 else {}
                n = g.create_node(kind, target, args, kwargs, name=opts.get("name"),
                                  type_expr=TYPES.get(opts.get("type")))
                if opts.get("wrapped"):
                    n.meta["is_wrapped"] = True
            elif kind == "output":
                opts = step[2] if len(step) > 2 else {}
                n = g.output(decode(step[1], nodes), type_expr=TYPES.get(opts.get("type")))
            elif kind == "inserting_before":
                ctx = g.inserting_before(nodes[step[1]] if step[1] else None)
                insert_stack.append(ctx)
                n = None
            elif kind == "inserting_after":
                ctx = g.inserting_after(nodes[step[1]] if step[1] else None)
                insert_stack.append(ctx)
                n = None
            elif kind == "restore_insert":
                insert_stack.pop().__exit__(None, None, None)
                n = None
            elif kind == "erase":
                g.erase_node(nodes[step[1]])
                n = None
            elif kind == "replace_all_uses_with":
                nodes[step[1]].replace_all_uses_with(nodes[step[2]])
                n = None
            elif kind == "replace_all_uses_with_except":
                skip = nodes[step[3]]
                nodes[step[1]].replace_all_uses_with(nodes[step[2]], lambda u: u is not skip)
                n = None
            elif kind == "replace_input_with":
                nodes[step[1]].replace_input_with(nodes[step[2]], nodes[step[3]])
                n = None
            elif kind == "update_arg":
                nodes[step[1]].update_arg(step[2], decode(step[3], nodes))
                n = None
            elif kind == "update_kwarg":
                nodes[step[1]].update_kwarg(step[2], decode(step[3], nodes))
                n = None
            elif kind == "set_args":
                nodes[step[1]].args = tuple(decode(a, nodes) for a in step[2])
                n = None
            elif kind == "set_kwargs":
                nodes[step[1]].kwargs = {k: decode(v, nodes) for k, v in step[2].items()}
                n = None
            elif kind == "prepend":
                nodes[step[1]].prepend(nodes[step[2]])
                n = None
            elif kind == "append":
                nodes[step[1]].append(nodes[step[2]])
                n = None
            elif kind == "dce":
                g.eliminate_dead_code()
                n = None
            elif kind == "lint":
                g.lint()
                n = None
            elif kind == "deepcopy":
                g = copy.deepcopy(g)
                nodes = {x.name: x for x in g.nodes}
                n = None
            elif kind == "node_copy":
                n = g.node_copy(nodes[step[1]])
            else:
                raise ValueError(kind)
            if n is not None:
                nodes[n.name] = n
        except Exception as e:
            errors.append({"step": i, "type": type(e).__name__, "message": str(e)})
    return g, errors


def run_case(steps):
    g, errors = run_steps_on(steps)
    out = {
        "code": g.python_code("self").src,
        "graph": str(g),
        "tabular": mask(tabulate_of(g)),
        "names": [n.name for n in g.nodes],
        "users": {n.name: [u.name for u in n.users] for n in g.nodes},
        "errors": errors,
    }
    try:
        g.lint()
        out["lint"] = None
    except Exception as e:
        out["lint"] = {"type": type(e).__name__, "message": str(e).split("\n")[0]}
    return out


def tabulate_of(g):
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        g.print_tabular()
    return buf.getvalue()[:-1]


def N(name):
    return {"node": name}


def S(s):
    return {"str": s}


def T(*xs):
    return {"tuple": list(xs)}


def L(*xs):
    return {"list": list(xs)}


SL_ALL = {"slice": [None, None, None]}

CASES = {}


def case(name, steps):
    CASES[name] = steps


# --- naming
case("single_add", [["placeholder", "x"], ["placeholder", "y"],
                    ["call_function", "operator.add", [N("x"), N("y")], {}], ["output", N("add")]])
case("many_adds", [["placeholder", "x"]] + [["call_function", "operator.add", [N("x"), 1], {}]]
     + [["call_function", "operator.add", [N("add" if i == 0 else f"add_{i}"), i], {}] for i in range(12)]
     + [["output", N("add_12")]])
case("builtin_names", [["placeholder", "x"], ["call_function", "torch.sum", [N("x")], {}],
                       ["call_function", "torch.max", [N("sum_1")], {}],
                       ["call_function", "len", [N("x")], {}],
                       ["call_method", "abs", [N("max_1")], {}],
                       ["call_method", "type", [N("abs_1")], {}],
                       ["output", T(N("len_1"), N("type_1"))]])
case("keyword_names", [["placeholder", "x"], ["call_method", "if", [N("x")], {}],
                       ["call_method", "for", [N("x")], {}], ["call_method", "None", [N("x")], {}],
                       ["call_method", "__getitem__", [N("x"), 0], {}],
                       ["output", L(N("if_1"), N("for_1"), N("none"), N("getitem"))]])
case("explicit_names", [["placeholder", "x"],
                        ["call_function", "torch.relu", [N("x")], {}, {"name": "foo"}],
                        ["call_function", "torch.relu", [N("foo")], {}, {"name": "foo"}],
                        ["call_function", "torch.relu", [N("foo_1")], {}, {"name": "foo_1"}],
                        ["call_function", "torch.relu", [N("foo_2")], {}, {"name": "bar_7"}],
                        ["call_function", "torch.relu", [N("bar_7")], {}, {"name": "bar_7"}],
                        ["call_function", "torch.relu", [N("bar_8")], {}, {"name": "9lives"}],
                        ["call_function", "torch.relu", [N("_9lives")], {}, {"name": "a.b-c"}],
                        ["output", N("a_b_c")]])
case("camel_case_targets", [["placeholder", "x"], ["call_module", "myLayer.subModule", [N("x")], {}],
                            ["call_module", "ALLCaps", [N("my_layer_sub_module")], {}],
                            ["call_method", "someMethod", [N("allcaps")], {}],
                            ["output", N("some_method")]])
case("get_attr_names", [["placeholder", "x"], ["get_attr", "linear.weight"], ["get_attr", "layer1.0.conv1.weight"],
                        ["get_attr", "linear.weight"],
                        ["call_function", "operator.add", [N("x"), N("linear_weight")], {}],
                        ["call_function", "operator.mul", [N("add"), N("layer1_0_conv1_weight")], {}],
                        ["call_function", "operator.sub", [N("mul"), N("linear_weight_1")], {}],
                        ["output", N("sub")]])
case("name_of_placeholder_suffix", [["placeholder", "x_1"], ["placeholder", "x"], ["placeholder", "x_1"],
                                    ["call_function", "operator.add", [N("x_1"), N("x")], {}],
                                    ["output", N("add")]])
# --- codegen rules
case("operators", [["placeholder", "a"], ["placeholder", "b"]]
     + [["call_function", f"operator.{op}", [N("a"), N("b")], {}] for op in
        ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor",
         "lshift", "rshift", "eq", "ne", "lt", "le", "gt", "ge"]]
     + [["call_function", f"operator.{op}", [N("a")], {}] for op in ["neg", "pos", "invert"]]
     + [["output", T(N("add"), N("ge"), N("neg"), N("invert"))]])
case("getitem_forms", [["placeholder", "x"],
                       ["call_function", "operator.getitem", [N("x"), 0], {}],
                       ["call_function", "operator.getitem", [N("x"), T(SL_ALL, 0)], {}],
                       ["call_function", "operator.getitem", [N("x"), T({"ellipsis": True}, None)], {}],
                       ["call_function", "operator.getitem", [N("x"), {"slice": [1, None, 2]}], {}],
                       ["call_function", "operator.getitem", [N("x"), T({"slice": [None, N("getitem"), None]}, -1)], {}],
                       ["output", T(N("getitem_1"), N("getitem_2"), N("getitem_3"), N("getitem_4"))]])
case("inplace_operators", [["placeholder", "x"], ["placeholder", "y"],
                           ["call_function", "operator.iadd", [N("x"), N("y")], {}],
                           ["call_function", "operator.imul", [N("iadd"), 2], {}],
                           ["call_function", "operator.setitem", [N("imul"), 0, N("y")], {}],
                           ["output", N("imul")]])
case("call_method_module_kwargs", [["placeholder", "x"],
                                   ["call_module", "layer1.0.conv1", [N("x")], {}],
                                   ["call_module", "features.12", [N("layer1_0_conv1")], {"inplace": False}],
                                   ["call_method", "view", [N("features_12"), -1, 4], {}],
                                   ["call_method", "transpose", [N("view")], {"dim0": 0, "dim1": 1}],
                                   ["call_function", "torch.sum", [N("transpose")], {"dim": -1, "keepdim": True}],
                                   ["output", N("sum_1")]])
case("getattr_builtin", [["placeholder", "x"], ["call_function", "getattr", [N("x"), S("shape")], {}],
                         ["call_function", "operator.getitem", [N("getattr_1"), 0], {}],
                         ["call_function", "getattr", [N("x"), S("0bad")], {}],
                         ["call_function", "getattr", [N("x"), S("dtype"), None], {}],
                         ["output", T(N("getitem"), N("getattr_2"), N("getattr_3"))]])
case("functional_and_torch", [["placeholder", "x"],
                              ["call_function", "torch.nn.functional.relu", [N("x")], {"inplace": True}],
                              ["call_function", "torch.conv2d", [N("relu"), N("x")], {"stride": T(1, 1)}],
                              ["call_function", "torch.nn.functional.log_softmax", [N("conv2d")], {"dim": 1}],
                              ["call_function", "torch.topk", [N("log_softmax"), 3], {}],
                              ["call_function", "torch.flatten", [N("topk"), 1], {}],
                              ["output", N("flatten")]])
case("placeholder_types_defaults", [["placeholder", "x", {"type": "torch.Tensor"}],
                                    ["placeholder", "n", {"type": "int", "default": 3}],
                                    ["placeholder", "flag", {"default": None}],
                                    ["placeholder", "s", {"type": "str", "default": S("mean")}],
                                    ["placeholder", "*args"],
                                    ["call_method", "repeat", [N("x"), N("n")], {}, {"type": "torch.Tensor"}],
                                    ["output", N("repeat"), {"type": "torch.Tensor"}]])
case("constants", [["placeholder", "x"],
                   ["call_function", "operator.mul", [N("x"), {"float": "inf"}], {}],
                   ["call_function", "operator.add", [N("mul"), {"float": "nan"}], {}],
                   ["call_function", "operator.sub", [N("add"), 1e-05], {}],
                   ["call_function", "operator.truediv", [N("sub"), 2.0], {}],
                   ["call_function", "torch.clamp", [N("truediv")], {"min": -1.5, "max": {"float": "-inf"}}],
                   ["call_method", "to", [N("clamp"), {"dtype": "float64"}], {}],
                   ["call_method", "reshape", [N("to"), {"size": [2, 3]}], {}],
                   ["call_function", "torch.cat", [L(N("reshape"), N("x"))], {"dim": 0}],
                   ["call_method", "fill_", [N("cat"), True], {"note": S("it's \"q\"\n")}],
                   ["output", {"dict": [[S("out"), N("fill_")], [S("n"), 3]]}]])
case("return_forms_tuple", [["placeholder", "x"], ["output", T(N("x"))]])
case("return_forms_list_dict", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                                ["output", {"dict": [[S("a"), L(N("x"), N("relu"))], [S("b"), None]]}]])
case("return_none", [["placeholder", "x"], ["output", None]])
case("empty_graph", [])
case("only_output", [["output", 3]])
case("self_placeholder", [["placeholder", "self"], ["placeholder", "x"],
                          ["call_function", "operator.add", [N("x"), 1], {}], ["output", N("add")]])
case("wrapped_functions", [["placeholder", "x"],
                           ["call_function", "len", [N("x")], {}, {"wrapped": True}],
                           ["call_function", "math.sqrt", [N("len_1")], {}, {"wrapped": True}],
                           ["call_function", "operator.truediv", [N("x"), N("sqrt")], {}],
                           ["call_function", "len", [N("truediv")], {}, {"wrapped": True}],
                           ["output", T(N("truediv"), N("len_2"))]])
case("last_use_several", [["placeholder", "x"], ["placeholder", "y"], ["placeholder", "z"],
                          ["call_function", "operator.add", [N("x"), N("y")], {}],
                          ["call_function", "operator.mul", [N("add"), N("x")], {}],
                          ["call_function", "torch.stack", [L(N("mul"), N("y"), N("z"), N("add"))], {}],
                          ["output", N("stack")]])
case("unused_values", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                       ["call_method", "sigmoid", [N("x")], {}], ["output", N("x")]])
case("node_named_like_global", [["placeholder", "x"],
                                ["call_function", "torch.relu", [N("x")], {}, {"name": "math_sqrt"}],
                                ["call_function", "math.sqrt", [N("math_sqrt")], {}, {"wrapped": True}],
                                ["call_function", "torch.relu", [N("sqrt")], {}, {"name": "wrap"}],
                                ["output", N("wrap")]])
case("node_named_torch", [["placeholder", "torch"], ["placeholder", "inf"],
                          ["call_function", "operator.add", [N("torch_1"), N("inf_1")], {}],
                          ["output", N("add")]])
# --- editing
case("erase_with_users", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                          ["call_method", "neg", [N("relu")], {}], ["call_method", "abs", [N("relu")], {}],
                          ["erase", "relu"], ["output", T(N("neg"), N("abs_1"))]])
case("erase_then_reuse_name", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                               ["erase", "relu"], ["call_method", "relu", [N("x")], {}],
                               ["output", N("relu_1")]])
case("replace_all_uses", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                          ["call_method", "neg", [N("relu")], {}], ["call_method", "abs", [N("relu")], {}],
                          ["call_function", "operator.add", [N("neg"), N("abs_1")], {}],
                          ["output", N("add")],
                          ["inserting_after", "relu"],
                          ["call_method", "sigmoid", [N("x")], {}],
                          ["restore_insert"],
                          ["replace_all_uses_with", "relu", "sigmoid"], ["erase", "relu"]])
case("replace_all_uses_except", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                                 ["call_method", "neg", [N("relu")], {}], ["call_method", "abs", [N("relu")], {}],
                                 ["call_function", "operator.add", [N("neg"), N("abs_1")], {}],
                                 ["output", N("add")],
                                 ["inserting_before", "neg"],
                                 ["call_method", "tanh", [N("relu")], {}],
                                 ["restore_insert"],
                                 ["replace_all_uses_with_except", "relu", "tanh", "tanh"]])
case("inserting_after_order", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                               ["output", N("relu")],
                               ["inserting_after", "x"],
                               ["call_method", "neg", [N("x")], {}],
                               ["call_method", "abs", [N("x")], {}],
                               ["call_method", "exp", [N("x")], {}],
                               ["restore_insert"],
                               ["call_method", "log", [N("x")], {}]])
case("inserting_before_none", [["placeholder", "x"], ["output", N("x")],
                               ["inserting_before", None], ["placeholder", "y"], ["restore_insert"],
                               ["inserting_after", None], ["call_method", "relu", [N("y")], {}],
                               ["restore_insert"]])
case("replace_input_and_update", [["placeholder", "x"], ["placeholder", "y"],
                                  ["call_function", "operator.add", [N("x"), N("x")], {"alpha": N("x")}],
                                  ["output", N("add")],
                                  ["replace_input_with", "add", "x", "y"],
                                  ["update_arg", "add", 1, N("x")],
                                  ["update_kwarg", "add", "alpha", 2],
                                  ["update_kwarg", "add", "beta", N("y")]])
case("set_args_users_order", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                              ["call_method", "neg", [N("x")], {}], ["call_method", "abs", [N("x")], {}],
                              ["set_args", "relu", [N("x"), 1]],
                              ["set_kwargs", "neg", {"k": N("relu")}],
                              ["output", T(N("relu"), N("neg"), N("abs_1"))]])
case("move_nodes", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                    ["call_method", "neg", [N("x")], {}], ["call_method", "abs", [N("x")], {}],
                    ["output", T(N("relu"), N("neg"), N("abs_1"))],
                    ["prepend", "relu", "abs_1"], ["append", "x", "neg"]])
case("lint_bad_order", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                        ["call_method", "neg", [N("relu")], {}], ["output", N("neg")],
                        ["prepend", "relu", "neg"]])
case("dce", [["placeholder", "x"], ["placeholder", "unused"], ["call_method", "relu", [N("x")], {}],
             ["call_method", "neg", [N("relu")], {}], ["call_method", "abs", [N("x")], {}],
             ["call_function", "operator.add", [N("abs_1"), 1], {}],
             ["call_function", "torch._assert", [True, S("msg")], {}],
             ["output", N("abs_1")], ["dce"]])
case("deepcopy_graph", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                        ["call_function", "operator.add", [N("relu"), N("x")], {}],
                        ["output", N("add"), {"type": "torch.Tensor"}], ["deepcopy"],
                        ["inserting_before", "add"], ["call_method", "neg", [N("relu")], {}], ["restore_insert"]])
case("node_copy_same_graph", [["placeholder", "x"], ["call_function", "operator.add", [N("x"), 1], {}],
                              ["call_function", "operator.mul", [N("add"), 2], {}],
                              ["inserting_before", "mul"], ["node_copy", "add"], ["node_copy", "add"],
                              ["restore_insert"], ["output", T(N("mul"), N("add_1"), N("add_2"))]])
case("prepend_self", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                      ["output", N("relu")], ["append", "relu", "relu"]])
case("update_arg_out_of_range", [["placeholder", "x"], ["call_method", "relu", [N("x")], {}],
                                 ["output", N("relu")], ["update_arg", "relu", 3, 1],
                                 ["update_arg", "relu", -1, N("x")]])
case("long_chain", [["placeholder", "x"]]
     + [["call_method", "relu", [N("x" if i == 0 else ("relu" if i == 1 else f"relu_{i - 1}"))], {}] for i in range(60)]
     + [["output", N("relu_59")]])
case("kwargs_only_nodes", [["placeholder", "x"],
                           ["call_function", "torch.add", [], {"input": N("x"), "other": N("x"), "alpha": 2}],
                           ["call_function", "torch.nn.functional.gelu", [N("add")], {"approximate": S("tanh")}],
                           ["output", N("gelu")]])


def target_facts(steps):
    """What torch says about each call_function target used in steps (for the C side to stand
    in for ops its registry does not hold yet)."""
    paths = sorted({s[1] for s in steps if s and s[0] == "call_function"})
    return {p: {"qualified_name": _get_qualified_name(resolve(p)),
                "name": resolve(p).__name__,
                "str": mask(str(resolve(p))),
                "impure": resolve(p) in torch.fx.node._side_effectful_functions} for p in paths}


def main():
    out = {"torch_version": torch.__version__, "cases": []}
    for name, steps in CASES.items():
        targets = target_facts(steps)
        result = run_case(steps)
        out["cases"].append({"id": name, "steps": steps, "targets": targets, **result})
    with open("goldens/graphs.json", "w") as f:
        json.dump(out, f, indent=1, allow_nan=False)
        f.write("\n")
    print(f"{len(out['cases'])} cases")


if __name__ == "__main__":
    main()
