"""Goldens for libfx's module tree and GraphModule construction: module trees built from plain
nn.Modules, parameters and buffers (builtin layers have their own goldens), a graph over them,
and what torch.fx 1.13 makes of it: which attributes GraphModule copies, its repr, state_dict
order, named_modules/parameters/buffers, get_submodule errors, gm.code, str(gm), lint errors.
Run with /usr/bin/python3:   cd tests/conformance && /usr/bin/python3 gen_modules.py

A case: "tree": [[path, kind, shape?]] with kind module | param | buffer | buffer_np (non
persistent) | tensor_attr (plain tensor attribute) | int_attr; "graph": Graph steps as in
gen_graphs.py; "lookups": paths for get_submodule.
"""
import contextlib
import io
import json

import torch
import torch.fx

from gen_graphs import run_steps_on, target_facts

CASES = []


def case(name, tree, steps, lookups=(), dict_root=False):
    CASES.append({"id": name, "tree": tree, "steps": steps, "lookups": list(lookups),
                  "dict_root": dict_root})


def build(tree):
    root = torch.nn.Module()
    counter = [0]

    def tensor(shape):
        n = 1
        for s in shape:
            n *= s
        t = torch.arange(counter[0], counter[0] + n, dtype=torch.float32).reshape(shape)
        counter[0] += n
        return t

    for path, kind, *rest in tree:
        *prefix, field = path.split(".")
        owner = root.get_submodule(".".join(prefix))
        if kind == "module":
            owner.add_module(field, torch.nn.Module())
        elif kind == "param":
            owner.register_parameter(field, torch.nn.Parameter(tensor(rest[0])))
        elif kind == "buffer":
            owner.register_buffer(field, tensor(rest[0]))
        elif kind == "buffer_np":
            owner.register_buffer(field, tensor(rest[0]), persistent=False)
        elif kind == "tensor_attr":
            setattr(owner, field, tensor(rest[0]))
        elif kind == "int_attr":
            setattr(owner, field, rest[0])
    return root


def describe(m):
    return {
        "repr": repr(m),
        "state_dict": list(m.state_dict().keys()),
        "named_modules": [n for n, _ in m.named_modules()],
        "named_parameters": [n for n, _ in m.named_parameters()],
        "named_buffers": [n for n, _ in m.named_buffers()],
    }


def main():
    case("flat_params", [["w", "param", [2, 3]], ["b", "buffer", [3]], ["s", "int_attr", 4]],
         [["placeholder", "x"], ["get_attr", "w"], ["get_attr", "b"],
          ["call_function", "operator.add", [{"node": "w"}, {"node": "b"}], {}],
          ["output", {"node": "add"}]])
    case("nested_call_module",
         [["layer1", "module"], ["layer1.0", "module"], ["layer1.0.conv1", "module"],
          ["layer1.0.conv1.weight", "param", [2, 2]], ["layer1.1", "module"],
          ["layer1.1.bn", "module"], ["layer1.1.bn.running_mean", "buffer", [2]],
          ["layer1.1.bn.num", "buffer_np", [1]], ["fc", "module"], ["fc.weight", "param", [2, 2]],
          ["unused", "module"], ["unused.p", "param", [1]]],
         [["placeholder", "x"], ["call_module", "layer1.0.conv1", [{"node": "x"}], {}],
          ["call_module", "layer1.1.bn", [{"node": "layer1_0_conv1"}], {}],
          ["get_attr", "fc.weight"],
          ["call_function", "torch.matmul", [{"node": "layer1_1_bn"}, {"node": "fc_weight"}], {}],
          ["output", {"node": "matmul"}]],
         lookups=["", "layer1", "layer1.0.conv1", "layer1.2", "layer1.0.conv1.weight", "fc.nothing"])
    case("parent_then_child",
         [["block", "module"], ["block.inner", "module"], ["block.inner.w", "param", [3]],
          ["block.scale", "tensor_attr", [3]]],
         [["placeholder", "x"], ["call_module", "block", [{"node": "x"}], {}],
          ["get_attr", "block.inner.w"], ["get_attr", "block.scale"],
          ["call_function", "operator.mul", [{"node": "block"}, {"node": "block_inner_w"}], {}],
          ["call_function", "operator.add", [{"node": "mul"}, {"node": "block_scale"}], {}],
          ["output", {"node": "add"}]])
    case("tensor_attr_becomes_buffer",
         [["sub", "module"], ["sub.t", "tensor_attr", [2]], ["sub.p", "param", [2]]],
         [["placeholder", "x"], ["get_attr", "sub.t"], ["get_attr", "sub.p"],
          ["call_function", "operator.add", [{"node": "sub_t"}, {"node": "sub_p"}], {}],
          ["output", {"node": "add"}]])
    case("non_identifier_paths",
         [["features", "module"], ["features.0", "module"], ["features.0.weight", "param", [2]],
          ["features.12", "module"]],
         [["placeholder", "x"], ["call_module", "features.0", [{"node": "x"}], {}],
          ["call_module", "features.12", [{"node": "features_0"}], {}],
          ["get_attr", "features.0.weight"],
          ["call_function", "operator.add", [{"node": "features_12"}, {"node": "features_0_weight"}], {}],
          ["output", {"node": "add"}]])
    case("dict_root",
         [["a", "module"], ["a.b", "module"], ["a.b.w", "param", [2]], ["c", "buffer", [2]]],
         [["placeholder", "x"], ["call_module", "a.b", [{"node": "x"}], {}], ["get_attr", "a.b.w"],
          ["get_attr", "c"],
          ["call_function", "operator.add", [{"node": "a_b"}, {"node": "a_b_w"}], {}],
          ["call_function", "operator.add", [{"node": "add"}, {"node": "c"}], {}],
          ["output", {"node": "add_1"}]], dict_root=True)
    case("lint_missing_target",
         [["a", "module"]],
         [["placeholder", "x"], ["call_module", "a", [{"node": "x"}], {}],
          ["output", {"node": "a"}]])

    out = {"torch_version": torch.__version__, "cases": []}
    for c in CASES:
        root = build(c["tree"])
        g, _ = run_steps_on(c["steps"])
        if c["dict_root"]:
            targets = {n.target: root.get_submodule(n.target) if n.op == "call_module"
                       else eval("root." + n.target) for n in g.nodes if n.op in ("call_module", "get_attr")}
            gm = torch.fx.GraphModule(targets, g)
        else:
            gm = torch.fx.GraphModule(root, g)
        lookups = {}
        for path in c["lookups"]:
            try:
                lookups[path] = {"ok": repr(root.get_submodule(path))}
            except AttributeError as e:
                lookups[path] = {"error": str(e)}
        res = dict(c)
        res["lookups"] = lookups
        res["targets"] = target_facts(c["steps"])
        res["root"] = describe(root)
        res["gm"] = describe(gm)
        res["code"] = gm.code
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            gm.print_readable()
        res["readable"] = buf.getvalue()
        res["str"] = str(gm)
        if c["id"] == "lint_missing_target":
            gm.delete_submodule("a")
        try:
            gm.graph.lint()
            res["lint"] = None
        except Exception as e:
            res["lint"] = {"type": type(e).__name__, "message": str(e).split("\n")[0]}
        out["cases"].append(res)
    with open("goldens/modules.json", "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"{len(out['cases'])} cases")


if __name__ == "__main__":
    main()
