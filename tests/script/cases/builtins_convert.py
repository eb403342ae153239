# int(s, base) and float(s) over combinations of literal fragments (signs, prefixes,
# underscores, spaces, inf/nan), and round() over many floats and ndigits
parts = ['', ' ', '-', '+', '0', '1', '9', '_', 'x', 'b', 'o', 'e', '.', 'f', 'z', 'in', 'nan', 'inf', '\t']
cases = [a + b for a in parts for b in parts]
cases += [a + b + c for a in ['', '-', ' '] for b in ['0', '1', '_', '.', 'e'] for c in ['0x1', '_1', '1_', '.5', 'e5', 'e-']]
cases += ['0x1f', '0X1F', '0b_1', '0_b1', '1_000', '1__000', '0o_7', '0o8', '00', '007', '0_7', '1e5', '1.5e+3_0',
          'Infinity', '-iNfInItY', '+nan', 'nan(1)', '1e400', '-1e400', '92233720368',
          '-92233720368', '1_2.3_4e5_6', '.e1', '1.e1', '.1e1', '0x1p3', '  12  ', '\n7\n']
for s in cases:
    row = [repr(s)]
    for base in (10, 0, 16, 2, 8):
        try:
            row.append(str(int(s, base)))
        except ValueError:
            row.append('-')
    try:
        row.append(repr(float(s)))
    except ValueError as e:
        row.append(str(e))
    print(' '.join(row))

seed = 12345
def rnd():
    global seed
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed
vals = [0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 2.675, 1.005, 4503599627370497.5, 1e-320, 123456789.125, 0.0, -0.0]
for i in range(150):
    m = ((rnd() * 65536 + rnd()) % 2000000000) / 1000000.0 - 1000.0
    vals.append(m * 10.0 ** ((rnd() % 30) - 15))
for v in vals:
    row = [repr(v)]
    for nd in (0, 1, 2, 3, -1, -2, 5, 10, 17):
        row.append(repr(round(v, nd)))
    if abs(v) < 1e18:
        row.append(repr(round(v)))
    print(' '.join(row))
