import itertools
import functools
import operator
from collections import defaultdict, namedtuple

Sale = namedtuple("Sale", "region product qty price")
sales = [
    Sale("north", "apple", 10, 0.5), Sale("south", "apple", 4, 0.55),
    Sale("north", "pear", 3, 0.8), Sale("east", "plum", 12, 0.3),
    Sale("south", "pear", 7, 0.75), Sale("north", "apple", 6, 0.5),
]

revenue = lambda s: s.qty * s.price
by_region = {k: round(sum(map(revenue, g)), 2)
             for k, g in itertools.groupby(sorted(sales, key=operator.attrgetter("region")),
                                           key=operator.attrgetter("region"))}
print(by_region)

print(functools.reduce(operator.add, (s.qty for s in sales)))
print(list(itertools.accumulate([s.qty for s in sales])))
print(list(itertools.chain.from_iterable([[1, 2], (3,), range(4, 6)])))
print(list(itertools.islice(itertools.cycle("abc"), 7)))
print(list(itertools.combinations("ABCD", 2))[:4], len(list(itertools.permutations(range(4), 2))))
print(list(itertools.product([0, 1], repeat=2)))
print(list(itertools.zip_longest("ab", [1, 2, 3], fillvalue="-")))
print(list(itertools.takewhile(lambda x: x < 10, itertools.count(1, 3))))
print(list(itertools.starmap(pow, [(2, 3), (3, 2)])))


def compose(*fns):
    return functools.reduce(lambda f, g: lambda x: g(f(x)), fns, lambda x: x)


pipeline = compose(str.strip, str.lower, lambda s: s.replace(" ", "_"))
print(pipeline("  Hello Big World "))


@functools.lru_cache(maxsize=None)
def partitions(n, k=None):
    if k is None:
        k = n
    if n == 0:
        return 1
    return sum(partitions(n - i, i) for i in range(1, min(n, k) + 1))


print([partitions(i) for i in range(1, 11)], partitions.cache_info().hits > 0)

totals = defaultdict(lambda: defaultdict(int))
for s in sales:
    totals[s.product][s.region] += s.qty
print({p: dict(r) for p, r in sorted(totals.items())})

scale = functools.partial(map, lambda x: x * 10)
print(list(scale([1, 2, 3])), sorted(sales, key=revenue)[-1].product)
print(max(sales, key=lambda s: (s.qty, -s.price)), min(s.price for s in sales))
