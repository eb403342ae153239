# iteration builtins: enumerate, zip, map, filter, reversed, iter/next, sorted, any/all, len
print(list(enumerate('abc')), list(enumerate('ab', 5)), list(enumerate([], start=3)))
print(list(zip([1, 2, 3], 'ab')), list(zip()), list(zip([1], [2], [3])), list(zip(range(3), range(3), strict=True)))
print(list(map(str, [1, 2])), list(map(lambda x, y: x + y, [1, 2, 3], [10, 20])), list(map(abs, ())))
print(list(filter(None, [0, 1, '', 'a', None, [], [0]])), list(filter(lambda x: x % 2, range(10))))
print(list(reversed([1, 2, 3])), list(reversed((1, 2))), list(reversed('abc')), list(reversed(range(1, 10, 3))))
print(list(reversed(range(5, -3, -2))), list(reversed(range(0))), list(reversed({1: 2, 3: 4})), list(reversed({1: 2, 3: 4}.items())))
print(tuple(reversed(range(-5, 5, 4))), list(reversed(range(3)))[0])

class Seq:
    def __len__(self):
        return 3
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return i * 10

class Rev:
    def __reversed__(self):
        return iter(['x', 'y'])

print(list(reversed(Seq())), list(Seq()), list(reversed(Rev())))
it = iter([1, 2, 3])
print(next(it), next(it), next(it), next(it, 'done'), next(it, None))
calls = []
def counter():
    calls.append(1)
    return len(calls)
print(list(iter(counter, 4)))
print(sorted([3, 1, 2]), sorted('bca'), sorted([3, 1, 2], reverse=True), sorted(['bb', 'a', 'ccc'], key=len))
print(sorted({3: 'a', 1: 'b'}), sorted([(1, 'b'), (0, 'z'), (1, 'a')]), sorted([], reverse=1))
print(sorted([2, 1], key=None), sorted(['b', 'A', 'a'], key=str.lower))
print(any([]), all([]), any([0, 0, 1]), all([1, 1, 0]), any(x > 2 for x in [1, 2, 3]), all(x for x in 'abc'))
print(len([1, 2]), len('héllo'), len({1: 2}), len(range(0, 10, 3)), len(()), len({1, 2, 2}))
e = enumerate('xy')
print(next(e), list(e))
z = zip([1, 2], [3, 4])
print(next(z), list(z))
m = map(lambda v: v * 2, [1, 2, 3])
print(next(m), list(m), list(m))
print(list(zip(*[(1, 'a'), (2, 'b')])))
print(dict(zip('abc', range(3))), dict(enumerate('ab')))
print(set(), set([1, 2, 2]), frozenset('aab') == frozenset('ab'), list(range(3)), tuple('ab'), list())
print(dict(), dict(a=1), dict([('a', 1)], b=2), dict({'a': 1}, a=2), dict([[1, 2]]), dict(((1, 2), (3, 4))))
print(range(5), range(1, 5), range(1, 10, 2), range(10, 0, -3), list(range(10, 0, -3)))
print(range(1, 10, 2).start, range(1, 10, 2).stop, range(1, 10, 2).step)
print(slice(3), slice(1, 2), slice(1, 2, 3), slice(None, 5).stop, [0, 1, 2, 3, 4][slice(1, None, 2)])
print(tuple([1, 2]), tuple(range(3)), list((1, 2)), list({'a': 1}), list('ab'), bool(), bool([]), bool([0]), str(), str(12), str([1, 'a']))
