class Node:
    def __init__(self, name, *children, size=0):
        self.name = name
        self.children = list(children)
        self.size = size

    def total(self):
        return self.size + sum(c.total() for c in self.children)

    def walk(self, depth=0):
        yield depth, self
        for child in self.children:
            yield from child.walk(depth + 1)

    def __repr__(self):
        return f"Node({self.name!r}, children={len(self.children)})"


def render(node, prefix="", is_last=True, is_root=True):
    lines = []
    connector = "" if is_root else ("└── " if is_last else "├── ")
    label = f"{node.name}/" if node.children else f"{node.name} ({node.size} B)"
    lines.append(prefix + connector + label)
    child_prefix = prefix + ("" if is_root else ("    " if is_last else "│   "))
    for i, child in enumerate(node.children):
        lines.extend(render(child, child_prefix, i == len(node.children) - 1, False))
    return lines


tree = Node("project",
            Node("src", Node("main.py", size=1200), Node("util.py", size=300),
                 Node("pkg", Node("__init__.py", size=0), Node("core.py", size=4500))),
            Node("README.md", size=800),
            Node("tests", Node("test_main.py", size=640)))

print("\n".join(render(tree)))
print(tree.total(), tree)
deepest = max(tree.walk(), key=lambda dn: dn[0])
print(deepest)
by_depth = {}
for depth, n in tree.walk():
    by_depth.setdefault(depth, []).append(n.name)
for depth, names in sorted(by_depth.items()):
    print(depth, ", ".join(sorted(names, key=str.lower)))


def to_dict(node):
    if not node.children:
        return node.size
    return {c.name: to_dict(c) for c in node.children}


def dump(d, indent=0):
    for key in sorted(d):
        value = d[key]
        if isinstance(value, dict):
            print(" " * indent + f"{key}:")
            dump(value, indent + 2)
        else:
            print(" " * indent + f"{key}: {value}")


print(to_dict(tree))
dump(to_dict(tree))
