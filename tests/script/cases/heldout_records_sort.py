from operator import itemgetter, attrgetter

employees = [
    {"name": "Alice", "dept": "eng", "salary": 120_000, "age": 31},
    {"name": "bob", "dept": "ops", "salary": 95_000, "age": 45},
    {"name": "Carol", "dept": "eng", "salary": 120_000, "age": 28},
    {"name": "dave", "dept": "sales", "salary": 70_000, "age": 31},
    {"name": "Eve", "dept": "ops", "salary": 95_000, "age": 39},
]

for e in sorted(employees, key=lambda e: (e["dept"], -e["salary"], e["name"].lower())):
    print(e["dept"], e["name"], e["salary"])
print([e["name"] for e in sorted(employees, key=itemgetter("age", "name"))])
print([e["name"] for e in sorted(employees, key=lambda e: e["name"])])
print([e["name"] for e in sorted(employees, key=lambda e: e["name"].casefold(), reverse=True)])

step1 = sorted(employees, key=itemgetter("name"))
step2 = sorted(step1, key=itemgetter("salary"), reverse=True)
print([(e["salary"], e["name"]) for e in step2])


class Version:
    def __init__(self, text):
        self.text = text
        self.parts = tuple(int(p) for p in text.split("."))

    def __lt__(self, other):
        return self.parts < other.parts

    def __eq__(self, other):
        return self.parts == other.parts

    def __repr__(self):
        return f"v{self.text}"


versions = [Version(v) for v in ["1.10.0", "1.2.3", "1.2.10", "0.9", "1.2.3"]]
print(sorted(versions), max(versions), versions[1] == versions[4])
print(sorted(["b10", "a2", "b9", "a10"], key=lambda s: (s[0], int(s[1:]))))

records = [("x", 3), ("y", 1), ("z", 2), ("w", 1)]
records.sort(key=itemgetter(1))
print(records)
ranked = {name: rank for rank, (name, _) in enumerate(sorted(records, key=lambda r: -r[1]), 1)}
print(ranked)
try:
    sorted([3, "a", 1])
except TypeError as e:
    print("TypeError:", e)
print(sorted({"b": 2, "a": 3, "c": 1}.items(), key=lambda kv: kv[1]))
