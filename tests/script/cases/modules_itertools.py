import itertools
from itertools import (chain, product, repeat, count, islice, zip_longest, accumulate, combinations,
                       permutations, starmap, groupby, cycle, takewhile, dropwhile, filterfalse, compress,
                       pairwise, tee, combinations_with_replacement)
import operator

print(list(chain([1, 2], (3,), "ab")), list(chain.from_iterable([[1], [2, 3], []])), list(chain()))
print(list(product([1, 2], "ab")), list(product(range(2), repeat=2)), list(product()), list(product([1], [])))
print(list(repeat("x", 3)), list(islice(repeat(7), 2)), list(repeat(1, 0)))
print(list(islice(count(), 5)), list(islice(count(10, 5), 3)), list(islice(count(0.5, 0.25), 3)))
print(list(islice("abcdefg", 2)), list(islice("abcdefg", 2, 4)), list(islice("abcdefg", 2, None)),
      list(islice("abcdefg", 0, None, 2)), list(islice(range(10), 1, 8, 3)))
print(list(zip_longest("ab", [1, 2, 3])), list(zip_longest("abc", "x", fillvalue="-")), list(zip_longest()))
print(list(accumulate([1, 2, 3, 4])), list(accumulate([1, 2, 3], operator.mul)), list(accumulate([1, 2], initial=10)),
      list(accumulate([])))
print(list(combinations("abcd", 2)), list(combinations(range(4), 3)), list(combinations([1], 2)),
      list(combinations([1, 2], 0)))
print(list(permutations("abc")), list(permutations(range(3), 2)), list(permutations([1], 2)))
print(list(combinations_with_replacement("ab", 2)))
print(list(starmap(pow, [(2, 3), (3, 2)])), list(starmap(operator.add, [("a", "b")])))
for k, grp in groupby("aaabbcaa"):
    print(k, list(grp))
print([(k, len(list(v))) for k, v in groupby([1, 2, 3, 4, 5, 6], key=lambda x: x // 3)])
print(list(islice(cycle("ab"), 5)), list(takewhile(lambda x: x < 3, [1, 2, 3, 1])),
      list(dropwhile(lambda x: x < 3, [1, 2, 3, 1])), list(filterfalse(lambda x: x % 2, range(6))))
print(list(compress("abcdef", [1, 0, 1, 0, 1, 1])), list(pairwise([1, 2, 3, 4])), list(pairwise([1])))
a, b = tee([1, 2, 3])
print(list(a), list(b))
it = chain([1], [2])
print(next(it), next(it), next(it, "done"))
print(sum(x * y for x, y in product(range(3), range(3))))
