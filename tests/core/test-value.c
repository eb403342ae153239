/* test-value.c: FxValue containers, Python's equality/hash rules and repr() as CPython prints it.
 * The float and str tables were printed by CPython (/usr/bin/python3) from the generators
 * quoted next to them. */
#include "fx-error.h"
#include "ir/value.h"
#include "ops/op.h"

#include <math.h>
#include <string.h>

static void
assert_repr (FxValue v, const char *expected)
{
  char *s = fx_value_to_repr (&v);
  g_assert_cmpstr (s, ==, expected);
  g_free (s);
  fx_value_clear (&v);
}

/* ------------------------------------------------------------------ floats */

/* for f in [edge cases, random.uniform(-1,1)*10**randint(-30,30), random bit patterns]:
 *     print(struct.unpack('<Q', struct.pack('<d', f))[0], repr(f)) */
static const struct { guint64 bits; const char *repr; } float_cases[] = {
  { G_GUINT64_CONSTANT (0x0000000000000000), "0.0" },
  { G_GUINT64_CONSTANT (0x8000000000000000), "-0.0" },
  { G_GUINT64_CONSTANT (0x3ff0000000000000), "1.0" },
  { G_GUINT64_CONSTANT (0xbff8000000000000), "-1.5" },
  { G_GUINT64_CONSTANT (0x3fb999999999999a), "0.1" },
  { G_GUINT64_CONSTANT (0x3fd3333333333334), "0.30000000000000004" },
  { G_GUINT64_CONSTANT (0x3fd5555555555555), "0.3333333333333333" },
  { G_GUINT64_CONSTANT (0x3fe5555555555555), "0.6666666666666666" },
  { G_GUINT64_CONSTANT (0x3ee4f8b588e368f1), "1e-05" },
  { G_GUINT64_CONSTANT (0x3f1a36e2eb1c432d), "0.0001" },
  { G_GUINT64_CONSTANT (0x3f202c9dedbc309d), "0.0001234" },
  { G_GUINT64_CONSTANT (0x4341c37937e08000), "1e+16" },
  { G_GUINT64_CONSTANT (0x430c6bf526340000), "1000000000000000.0" },
  { G_GUINT64_CONSTANT (0x437b69b4ba630f35), "1.2345678901234568e+17" },
  { G_GUINT64_CONSTANT (0x4480f0cf064dd592), "1e+22" },
  { G_GUINT64_CONSTANT (0x3e7ad7f29abcaf48), "1e-07" },
  { G_GUINT64_CONSTANT (0x0000000000000001), "5e-324" },
  { G_GUINT64_CONSTANT (0x0010000000000000), "2.2250738585072014e-308" },
  { G_GUINT64_CONSTANT (0x7fefffffffffffff), "1.7976931348623157e+308" },
  { G_GUINT64_CONSTANT (0x7ff0000000000000), "inf" },
  { G_GUINT64_CONSTANT (0xfff0000000000000), "-inf" },
  { G_GUINT64_CONSTANT (0x7ff8000000000000), "nan" },
  { G_GUINT64_CONSTANT (0x4059000000000000), "100.0" },
  { G_GUINT64_CONSTANT (0x40934a0000000000), "1234.5" },
  { G_GUINT64_CONSTANT (0x4340000000000000), "9007199254740992.0" },
  { G_GUINT64_CONSTANT (0x3fe0000000000000), "0.5" },
  { G_GUINT64_CONSTANT (0x400921f9f01b866e), "3.14159" },
  { G_GUINT64_CONSTANT (0x3efa36e2eb1c432d), "2.5e-05" },
  { G_GUINT64_CONSTANT (0x3c36b082c2148b8e), "1.23e-18" },
  { G_GUINT64_CONSTANT (0x7e37e43c8800759c), "1e+300" },
  { G_GUINT64_CONSTANT (0x4341c37937e08000), "1e+16" },
  { G_GUINT64_CONSTANT (0x4341c37937e07fff), "9999999999999998.0" },
  { G_GUINT64_CONSTANT (0x3fd3333333333333), "0.3" },
  { G_GUINT64_CONSTANT (0x3ff199999999999a), "1.1" },
  { G_GUINT64_CONSTANT (0x4005666666666666), "2.675" },
  { G_GUINT64_CONSTANT (0xc0c29a0b6e1e38b3), "-9524.089298036275" },
  { G_GUINT64_CONSTANT (0x43d8c329115d346c), "7.137260127694991e+18" },
  { G_GUINT64_CONSTANT (0xc01b7add9ad117c7), "-6.8699859800453345" },
  { G_GUINT64_CONSTANT (0x3c2a329f58759c9a), "7.100912718085173e-19" },
  { G_GUINT64_CONSTANT (0xc04f88b1f87384e0), "-63.06793122902468" },
  { G_GUINT64_CONSTANT (0xc1871d2dbca87158), "-48473527.582247436" },
  { G_GUINT64_CONSTANT (0x3ae6ab013bb3c1e2), "5.859537450399052e-25" },
  { G_GUINT64_CONSTANT (0xbb60242797db058b), "-1.068136944860032e-22" },
  { G_GUINT64_CONSTANT (0xc4463096616e447d), "-8.186589250163212e+20" },
  { G_GUINT64_CONSTANT (0x41fd15eabf03ff21), "7807609840.249787" },
  { G_GUINT64_CONSTANT (0xbee33705be20a265), "-9.162393272603081e-06" },
  { G_GUINT64_CONSTANT (0x4235a45830811d05), "92951556225.11336" },
  { G_GUINT64_CONSTANT (0x42264032ceb82758), "47783176028.07684" },
  { G_GUINT64_CONSTANT (0xb9abc991bff5dda3), "-6.8501180971967515e-31" },
  { G_GUINT64_CONSTANT (0x3a806cd1512a0210), "6.634032506999561e-27" },
  { G_GUINT64_CONSTANT (0xbc303fec1515d1f6), "-8.8089778966229e-19" },
  { G_GUINT64_CONSTANT (0x4192195c8a0708fc), "75912994.50687021" },
  { G_GUINT64_CONSTANT (0xbfb80f4d2e3858e2), "-0.09398348215504229" },
  { G_GUINT64_CONSTANT (0xc14a816a7979f81e), "-3474132.949034705" },
  { G_GUINT64_CONSTANT (0x408566d584b6a48a), "684.8542570370639" },
  { G_GUINT64_CONSTANT (0xbd62be36b059efa6), "-5.327087247328206e-13" },
  { G_GUINT64_CONSTANT (0xc1bb0ad8626aae78), "-453695586.4167247" },
  { G_GUINT64_CONSTANT (0xc2335351ca2cef84), "-83002247724.93561" },
  { G_GUINT64_CONSTANT (0xc0e5a9ed7130d106), "-44367.42006722283" },
  { G_GUINT64_CONSTANT (0x44b4fe4caf27e33a), "9.913832833123982e+22" },
  { G_GUINT64_CONSTANT (0xbd02c5563481cfd1), "-8.335930450587032e-15" },
  { G_GUINT64_CONSTANT (0xbc854c0de2e9deb7), "-3.694455659689002e-17" },
  { G_GUINT64_CONSTANT (0x3994e81214a1fa5d), "2.576928271412759e-31" },
  { G_GUINT64_CONSTANT (0xc3ddd25d401fb4a5), "-8.595530008801482e+18" },
  { G_GUINT64_CONSTANT (0xbaee55ceb920383f), "-7.841461688220529e-25" },
  { G_GUINT64_CONSTANT (0x3ea74242e396d5b2), "6.931672437623572e-07" },
  { G_GUINT64_CONSTANT (0xb9e5f6e9d598f3c7), "-8.66346985726917e-30" },
  { G_GUINT64_CONSTANT (0x39ac2d577edb651b), "6.94619546605609e-31" },
  { G_GUINT64_CONSTANT (0xc5e724a57c41e162), "-5.729966430408148e+28" },
  { G_GUINT64_CONSTANT (0x3fea41e5306b281a), "0.8205438562083629" },
  { G_GUINT64_CONSTANT (0xc2ec50fec8aa1382), "-249073580200092.06" },
  { G_GUINT64_CONSTANT (0xba645133919fdd57), "-2.051512238414377e-27" },
  { G_GUINT64_CONSTANT (0x3c038d15b5f08e4f), "1.3248349174044895e-19" },
  { G_GUINT64_CONSTANT (0x3d2f5b8769a6e5d0), "5.5702171735330166e-14" },
  { G_GUINT64_CONSTANT (0xbd8cb1b1906df97d), "-3.2621432710969155e-12" },
  { G_GUINT64_CONSTANT (0xbf018dfed255f91d), "-3.348287490733042e-05" },
  { G_GUINT64_CONSTANT (0x3b18f4c614cce968), "5.160810339875177e-24" },
  { G_GUINT64_CONSTANT (0xc304c5523ac739b5), "-730807062292278.6" },
  { G_GUINT64_CONSTANT (0xba4f9bbdff280ea5), "-7.9790738208658985e-28" },
  { G_GUINT64_CONSTANT (0xbfe67041703cffe0), "-0.7012030784753698" },
  { G_GUINT64_CONSTANT (0xc0ef7a0bfac2820d), "-64464.37436032677" },
  { G_GUINT64_CONSTANT (0xc04f2954ffe83d8b), "-62.3229064830767" },
  { G_GUINT64_CONSTANT (0xc335fa6aef009027), "-6186311694192679.0" },
  { G_GUINT64_CONSTANT (0x3f0c42ed100d77f7), "5.390439947093589e-05" },
  { G_GUINT64_CONSTANT (0x3b0bcc6da0db1c25), "2.8743024742233423e-24" },
  { G_GUINT64_CONSTANT (0xbc436568bd6d68f3), "-2.1029325692719805e-18" },
  { G_GUINT64_CONSTANT (0xc520872d0d6c5b0d), "-9.990581829876459e+24" },
  { G_GUINT64_CONSTANT (0x44498774198ab512), "9.418581124373831e+20" },
  { G_GUINT64_CONSTANT (0x452eaf6fcb56c0c1), "1.8548125481821809e+25" },
  { G_GUINT64_CONSTANT (0xbbfc5b22aecf96d2), "-9.607385812593964e-20" },
  { G_GUINT64_CONSTANT (0xc4c663622711fc8e), "-2.1145072585589132e+23" },
  { G_GUINT64_CONSTANT (0x4108e827ec67574a), "204036.99043148226" },
  { G_GUINT64_CONSTANT (0xbb8e32b05a95ee29), "-7.993344956322341e-22" },
  { G_GUINT64_CONSTANT (0xbcf9d428619726cd), "-5.7351326284495484e-15" },
  { G_GUINT64_CONSTANT (0xc1cd3b49b9612c9d), "-980849522.759174" },
  { G_GUINT64_CONSTANT (0xbd581287bebc2c4b), "-3.420891489045401e-13" },
  { G_GUINT64_CONSTANT (0xba668bde742cbef4), "-2.276600886374929e-27" },
  { G_GUINT64_CONSTANT (0xc15f4586229bd5af), "-8197656.540761395" },
  { G_GUINT64_CONSTANT (0x3996299e6d2656c1), "2.7317481105048836e-31" },
  { G_GUINT64_CONSTANT (0x3e55c023602be1f8), "2.025676871638775e-08" },
  { G_GUINT64_CONSTANT (0x3b3d88abd8f7f395), "2.4429846485269224e-23" },
  { G_GUINT64_CONSTANT (0x3fed627664b2bb46), "0.918269344974626" },
  { G_GUINT64_CONSTANT (0x3b5417028cbe3aa7), "6.647184576775319e-23" },
  { G_GUINT64_CONSTANT (0x3bf5a2c77fadb53b), "7.330513356044445e-20" },
  { G_GUINT64_CONSTANT (0x3d86629989e9c14c), "2.5448975196682385e-12" },
  { G_GUINT64_CONSTANT (0x447bad05b8369104), "8.168474618849659e+21" },
  { G_GUINT64_CONSTANT (0x431f63eb24b16143), "2208896465524816.8" },
  { G_GUINT64_CONSTANT (0xc36b8d1dc3dedd62), "-6.203986680734798e+16" },
  { G_GUINT64_CONSTANT (0x40d930dd21cd87d4), "25795.455188162465" },
  { G_GUINT64_CONSTANT (0xc61ea2f84fa75725), "-6.068204091940226e+29" },
  { G_GUINT64_CONSTANT (0xbfcc9e4603c51a00), "-0.22358012374952807" },
  { G_GUINT64_CONSTANT (0x3ef5b67369afc33a), "2.07068429566887e-05" },
  { G_GUINT64_CONSTANT (0xbaf18251576bee63), "-9.051968588852929e-25" },
  { G_GUINT64_CONSTANT (0xbd04c677b347cb54), "-9.226070566124346e-15" },
  { G_GUINT64_CONSTANT (0xc2fdbd5a4b672e28), "-523185614648034.5" },
  { G_GUINT64_CONSTANT (0x41c9886e64409ddb), "856743112.5048174" },
  { G_GUINT64_CONSTANT (0xd2df2c206bba8d21), "-1.587480963783774e+91" },
  { G_GUINT64_CONSTANT (0x98b20411e7a28cbd), "-1.0108778014348522e-189" },
  { G_GUINT64_CONSTANT (0x4b1e943e7db224cb), "7.322234609642084e+53" },
  { G_GUINT64_CONSTANT (0x2ce933e185239574), "2.416449474379226e-92" },
  { G_GUINT64_CONSTANT (0xb869135cede26c2e), "-5.895253865667103e-37" },
  { G_GUINT64_CONSTANT (0x119b4fe5fa285a0d), "7.378674883565716e-224" },
  { G_GUINT64_CONSTANT (0x3a782ebb205bc308), "4.8836256310580336e-27" },
  { G_GUINT64_CONSTANT (0x8f32a1f27ab36602), "-1.8312894964333763e-235" },
  { G_GUINT64_CONSTANT (0xda36e0d6a74c4611), "-3.871698042229512e+126" },
  { G_GUINT64_CONSTANT (0x9d42f6709da9b14d), "-1.0049202269262416e-167" },
  { G_GUINT64_CONSTANT (0x47bc754812fad802), "3.7827344451656997e+37" },
  { G_GUINT64_CONSTANT (0xead81dcd365fdcd6), "-4.83915738802174e+206" },
  { G_GUINT64_CONSTANT (0x3437f5abea3a0683), "3.816993172001012e-57" },
  { G_GUINT64_CONSTANT (0x043e3ef5bfbd7d14), "3.1036390717163892e-288" },
  { G_GUINT64_CONSTANT (0x44e9e4a511b41900), "9.782153136532579e+23" },
  { G_GUINT64_CONSTANT (0x7219c1da69534048), "4.293741025724295e+241" },
  { G_GUINT64_CONSTANT (0x0f7a04433fc2a908), "4.0912382928424934e-234" },
  { G_GUINT64_CONSTANT (0x2d1ef7bf0beddb07), "2.3753691062585704e-91" },
  { G_GUINT64_CONSTANT (0x5e68b7ca482ea760), "6.173053053406582e+146" },
};

static void
test_float_repr (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (float_cases); i++)
    {
      double f;
      memcpy (&f, &float_cases[i].bits, sizeof f);
      assert_repr (fx_value_float (f), float_cases[i].repr);
    }
  assert_repr (fx_value_float (-NAN), "nan");
  assert_repr (fx_value_float (1e-05), "1e-05");
  assert_repr (fx_value_float (2.0), "2.0");
  assert_repr (fx_value_float (1e16), "1e+16");
  assert_repr (fx_value_float (-1e-100), "-1e-100");
}

/* ------------------------------------------------------------------ strings */

#define S(lit) lit, sizeof (lit) - 1

/* for s in [...]: print(s, repr(s)) */
static const struct { const char *s; gsize len; const char *repr; } str_cases[] = {
  { S (""), "''" },
  { S ("a"), "'a'" },
  { S ("hello world"), "'hello world'" },
  { S ("it's"), "\"it's\"" },
  { S ("say \"hi\""), "'say \"hi\"'" },
  { S ("both ' and \""), "'both \\' and \"'" },
  { S ("back\\slash"), "'back\\\\slash'" },
  { S ("tab\011here"), "'tab\\there'" },
  { S ("new\012line"), "'new\\nline'" },
  { S ("cr\015"), "'cr\\r'" },
  { S ("\000nul"), "'\\x00nul'" },
  { S ("\007bell\033"), "'\\x07bell\\x1b'" },
  { S ("\177"), "'\\x7f'" },
  { S ("caf\303\251"), "'caf\303\251'" },
  { S ("\302\240nbsp"), "'\\xa0nbsp'" },
  { S ("\302\255"), "'\\xad'" },
  { S ("\342\200\250"), "'\\u2028'" },
  { S ("\342\200\213"), "'\\u200b'" },
  { S ("snow\342\230\203man"), "'snow\342\230\203man'" },
  { S ("\360\237\230\200"), "'\360\237\230\200'" },
  { S ("\356\200\200"), "'\\ue000'" },
  { S ("\363\240\200\201"), "'\\U000e0001'" },
  { S ("x\314\201"), "'x\314\201'" },
  { S ("\343\200\200"), "'\\u3000'" },
  { S ("'"), "\"'\"" },
  { S ("\""), "'\"'" },
  { S ("'\""), "'\\'\"'" },
  { S ("\\'"), "\"\\\\'\"" },
  { S ("\302\200"), "'\\x80'" },
  { S ("\302\237"), "'\\x9f'" },
  { S ("\302\240"), "'\\xa0'" },
  { S ("\303\277"), "'\303\277'" },
};

static void
test_str (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (str_cases); i++)
    assert_repr (fx_value_take_str (fx_str_new_len (str_cases[i].s, str_cases[i].len)),
                 str_cases[i].repr);
  {
    FxStr *a = fx_str_new ("abc"), *b = fx_str_new_len ("abcdef", 3), *n = fx_str_new (NULL);
    g_assert_cmpuint (a->len, ==, 3);
    g_assert_cmpstr (b->data, ==, "abc");
    g_assert_cmpuint (n->len, ==, 0);
    g_assert_cmpuint (fx_str_hash (a), ==, fx_str_hash (b));
    g_assert_cmpuint (fx_str_hash (a), !=, 0);
    g_assert_true (fx_str_ref (a) == a);
    fx_str_unref (a);
    fx_str_unref (a);
    fx_str_unref (b);
    fx_str_unref (n);
  }
}

/* ------------------------------------------------------------------ containers */

static FxValue
list_of (int n, const FxValue *items)
{
  FxSeq *seq = fx_seq_new (0);
  for (int i = 0; i < n; i++)
    fx_seq_append (seq, items[i]);
  return fx_value_take_list (seq);
}

static FxValue
tuple_of (int n, const FxValue *items)
{
  FxSeq *seq = fx_seq_new (n);
  for (int i = 0; i < n; i++)
    seq->items[i] = items[i];
  return fx_value_take_tuple (seq);
}

#define LIST(...) list_of (G_N_ELEMENTS (((FxValue[]) { __VA_ARGS__ })), (FxValue[]) { __VA_ARGS__ })
#define TUPLE(...) tuple_of (G_N_ELEMENTS (((FxValue[]) { __VA_ARGS__ })), (FxValue[]) { __VA_ARGS__ })

static void
test_container_repr (void)
{
  FxDict *d = fx_dict_new ();
  static const int64_t sizes[2] = { 2, 3 };
  static const char *const max_fields[] = { "values", "indices" };
  static const FxTupleType max_type = { "torch.return_types.max", 2, max_fields };
  static const char *const p_fields[] = { "x", "y" };
  static const FxTupleType p_type = { "P", 2, p_fields };
  FxSeq *nt;

  assert_repr (fx_value_none (), "None");
  assert_repr (fx_value_bool (TRUE), "True");
  assert_repr (fx_value_bool (FALSE), "False");
  assert_repr (fx_value_int (-42), "-42");
  assert_repr (fx_value_int (INT64_MIN), "-9223372036854775808");
  assert_repr (fx_value_ellipsis (), "Ellipsis");
  assert_repr (fx_value_dtype (FX_DTYPE_FLOAT32), "torch.float32");
  assert_repr (fx_value_dtype (FX_DTYPE_BOOL), "torch.bool");
  assert_repr (fx_value_device ("cpu"), "device(type='cpu')");
  assert_repr (fx_value_device ("cuda:1"), "device(type='cuda', index=1)");

  /* repr([1, 'a', 2.5, None, True, False]) */
  assert_repr (LIST (fx_value_int (1), fx_value_str ("a"), fx_value_float (2.5), fx_value_none (),
                     fx_value_bool (TRUE), fx_value_bool (FALSE)),
               "[1, 'a', 2.5, None, True, False]");
  /* repr(((1, 2), (), (3,))) */
  assert_repr (TUPLE (TUPLE (fx_value_int (1), fx_value_int (2)), fx_value_take_tuple (fx_seq_new (0)),
                      TUPLE (fx_value_int (3))),
               "((1, 2), (), (3,))");
  assert_repr (fx_value_take_list (fx_seq_new (0)), "[]");
  assert_repr (LIST (fx_value_take_list (fx_seq_new (0))), "[[]]");
  assert_repr (fx_value_take_dict (fx_dict_new ()), "{}");

  /* repr({'a': 1, 2: [3, 'x'], (1,): None}) */
  fx_dict_set (d, fx_value_str ("a"), fx_value_int (1));
  fx_dict_set (d, fx_value_int (2), LIST (fx_value_int (3), fx_value_str ("x")));
  fx_dict_set (d, TUPLE (fx_value_int (1)), fx_value_none ());
  assert_repr (fx_value_take_dict (d), "{'a': 1, 2: [3, 'x'], (1,): None}");

  assert_repr (fx_value_take_slice (fx_slice_new (fx_value_none (), fx_value_int (2), fx_value_none ())),
               "slice(None, 2, None)");
  assert_repr (fx_value_take_slice (fx_slice_new (fx_value_str ("a"), fx_value_float (1.5),
                                                  TUPLE (fx_value_int (1)))),
               "slice('a', 1.5, (1,))");

  /* torch.Size([2, 3]), [torch.Size([2, 3])], torch.Size([]) */
  assert_repr (fx_value_int_tuple (&fx_tuple_type_size, 2, sizes), "torch.Size([2, 3])");
  assert_repr (LIST (fx_value_int_tuple (&fx_tuple_type_size, 2, sizes)), "[torch.Size([2, 3])]");
  assert_repr (fx_value_int_tuple (&fx_tuple_type_size, 0, NULL), "torch.Size([])");
  assert_repr (fx_value_int_tuple (NULL, 2, sizes), "(2, 3)");
  assert_repr (fx_value_int_tuple (NULL, 1, sizes), "(2,)");

  /* structseq: torch.return_types.max(\nvalues=...,\nindices=...) */
  nt = fx_seq_new (2);
  nt->type = &max_type;
  nt->items[0] = fx_value_float (2.0);
  nt->items[1] = fx_value_int (1);
  assert_repr (TUPLE (fx_value_take_tuple (nt)),
               "(torch.return_types.max(\nvalues=2.0,\nindices=1),)");
  /* collections.namedtuple('P', ['x', 'y'])(1, 'a') */
  nt = fx_seq_new (2);
  nt->type = &p_type;
  nt->items[0] = fx_value_int (1);
  nt->items[1] = fx_value_str ("a");
  assert_repr (fx_value_take_tuple (nt), "P(x=1, y='a')");
}

static void
test_other_repr (void)
{
  static const FxOp op = { .kind = FX_OP_FUNCTION, .qualified_name = "torch.relu", .name = "relu" };
  FxTensor *t = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, (const int64_t[]) { 2 });
  FxValue tv = fx_value_take_tensor (t);
  char *s;

  assert_repr (fx_value_op (&op), "torch.relu");
  s = fx_value_to_repr (&tv);
  g_assert_true (g_str_has_prefix (s, "tensor("));
  g_free (s);
  fx_value_clear (&tv);
  g_assert_cmpint (tv.kind, ==, FX_VALUE_NONE);

  g_assert_cmpstr (fx_value_kind_name (FX_VALUE_NONE), ==, "NoneType");
  g_assert_cmpstr (fx_value_kind_name (FX_VALUE_INT), ==, "int");
  g_assert_cmpstr (fx_value_kind_name (FX_VALUE_TUPLE), ==, "tuple");
  g_assert_cmpstr (fx_value_kind_name (FX_VALUE_DICT), ==, "dict");
  g_assert_cmpstr (fx_value_kind_name (FX_VALUE_STR), ==, "str");
}

/* ------------------------------------------------------------------ equality and hashing */

static void
assert_equal_values (FxValue a, FxValue b, gboolean equal)
{
  g_assert_cmpint (fx_value_equal (&a, &b), ==, equal);
  g_assert_cmpint (fx_value_equal (&b, &a), ==, equal);
  if (equal)
    g_assert_cmpuint (fx_value_hash (&a), ==, fx_value_hash (&b));
  fx_value_clear (&a);
  fx_value_clear (&b);
}

static void
test_equal_hash (void)
{
  static const int64_t sizes[2] = { 2, 3 };
  FxTensor *t = fx_tensor_zeros (FX_DTYPE_FLOAT32, 0, NULL);
  FxTensor *t2 = fx_tensor_zeros (FX_DTYPE_FLOAT32, 0, NULL);

  /* 1 == 1.0 == True, with equal hashes */
  assert_equal_values (fx_value_int (1), fx_value_float (1.0), TRUE);
  assert_equal_values (fx_value_int (1), fx_value_bool (TRUE), TRUE);
  assert_equal_values (fx_value_float (1.0), fx_value_bool (TRUE), TRUE);
  assert_equal_values (fx_value_float (-0.0), fx_value_int (0), TRUE);
  assert_equal_values (fx_value_float (-0.0), fx_value_bool (FALSE), TRUE);
  assert_equal_values (fx_value_float (1.5), fx_value_int (1), FALSE);
  /* 9007199254740993 == 9007199254740992.0 is False in Python: no rounding */
  assert_equal_values (fx_value_int (9007199254740993LL), fx_value_float (9007199254740992.0), FALSE);
  assert_equal_values (fx_value_int (INT64_MIN), fx_value_float (-9223372036854775808.0), TRUE);
  assert_equal_values (fx_value_int (INT64_MAX), fx_value_float (9223372036854775808.0), FALSE);
  assert_equal_values (fx_value_float (NAN), fx_value_float (NAN), FALSE);
  assert_equal_values (fx_value_float (INFINITY), fx_value_float (INFINITY), TRUE);
  assert_equal_values (fx_value_none (), fx_value_none (), TRUE);
  assert_equal_values (fx_value_none (), fx_value_int (0), FALSE);
  assert_equal_values (fx_value_ellipsis (), fx_value_ellipsis (), TRUE);
  assert_equal_values (fx_value_str ("ab"), fx_value_str ("ab"), TRUE);
  assert_equal_values (fx_value_str ("ab"), fx_value_str ("abc"), FALSE);
  assert_equal_values (fx_value_str ("1"), fx_value_int (1), FALSE);
  assert_equal_values (fx_value_dtype (FX_DTYPE_INT64), fx_value_dtype (FX_DTYPE_INT64), TRUE);
  assert_equal_values (fx_value_dtype (FX_DTYPE_INT64), fx_value_dtype (FX_DTYPE_INT32), FALSE);
  assert_equal_values (fx_value_device ("cpu"), fx_value_device ("cpu"), TRUE);
  assert_equal_values (fx_value_device ("cpu"), fx_value_str ("cpu"), FALSE);
  /* (1, 2) == (1.0, 2.0); torch.Size([2, 3]) == (2, 3); tuples never equal lists */
  assert_equal_values (TUPLE (fx_value_int (1), fx_value_int (2)),
                       TUPLE (fx_value_float (1.0), fx_value_float (2.0)), TRUE);
  assert_equal_values (fx_value_int_tuple (&fx_tuple_type_size, 2, sizes),
                       fx_value_int_tuple (NULL, 2, sizes), TRUE);
  assert_equal_values (TUPLE (fx_value_int (1)), LIST (fx_value_int (1)), FALSE);
  assert_equal_values (TUPLE (fx_value_int (1)), TUPLE (fx_value_int (1), fx_value_int (2)), FALSE);
  assert_equal_values (LIST (fx_value_str ("a"), fx_value_none ()),
                       LIST (fx_value_str ("a"), fx_value_none ()), TRUE);
  assert_equal_values (fx_value_take_slice (fx_slice_new (fx_value_none (), fx_value_int (2), fx_value_none ())),
                       fx_value_take_slice (fx_slice_new (fx_value_none (), fx_value_float (2.0), fx_value_none ())),
                       TRUE);
  /* tensors by identity */
  assert_equal_values (fx_value_tensor (t), fx_value_tensor (t), TRUE);
  assert_equal_values (fx_value_tensor (t), fx_value_tensor (t2), FALSE);
  {
    FxDict *a = fx_dict_new (), *b = fx_dict_new ();
    fx_dict_set (a, fx_value_str ("x"), fx_value_int (1));
    fx_dict_set (a, fx_value_str ("y"), fx_value_int (2));
    fx_dict_set (b, fx_value_str ("y"), fx_value_float (2.0));
    fx_dict_set (b, fx_value_str ("x"), fx_value_bool (TRUE));
    assert_equal_values (fx_value_take_dict (a), fx_value_take_dict (b), TRUE);
  }
  fx_tensor_unref (t);
  fx_tensor_unref (t2);
}

/* ------------------------------------------------------------------ dicts */

static void
test_dict_python_semantics (void)
{
  FxDict *d = fx_dict_new ();
  FxValue key, *got;
  const FxValue *k, *v;
  char *s;
  FxValue dv;

  /* d = {1: 'a'}; d[1.0] = 'b'; d[True] = 'c'  ->  {1: 'c'} */
  fx_dict_set (d, fx_value_int (1), fx_value_str ("a"));
  fx_dict_set (d, fx_value_float (1.0), fx_value_str ("b"));
  fx_dict_set (d, fx_value_bool (TRUE), fx_value_str ("c"));
  g_assert_cmpuint (fx_dict_len (d), ==, 1);
  dv = fx_value_take_dict (fx_dict_ref (d));
  s = fx_value_to_repr (&dv);
  g_assert_cmpstr (s, ==, "{1: 'c'}");
  g_free (s);
  fx_value_clear (&dv);

  /* d = {'x': 1, 'y': 2, 'z': 3}; del d['x']; d['x'] = 4; d['y'] = 5 -> {'y': 5, 'z': 3, 'x': 4} */
  key = fx_value_int (1);
  g_assert_true (fx_dict_remove (d, &key));
  g_assert_false (fx_dict_remove (d, &key));
  g_assert_cmpuint (fx_dict_len (d), ==, 0);
  g_assert_false (fx_dict_entry (d, 0, &k, &v));
  fx_dict_set (d, fx_value_str ("x"), fx_value_int (1));
  fx_dict_set (d, fx_value_str ("y"), fx_value_int (2));
  fx_dict_set (d, fx_value_str ("z"), fx_value_int (3));
  key = fx_value_str ("x");
  g_assert_true (fx_dict_remove (d, &key));
  fx_value_clear (&key);
  fx_dict_set (d, fx_value_str ("x"), fx_value_int (4));
  fx_dict_set (d, fx_value_str ("y"), fx_value_int (5));
  dv = fx_value_take_dict (d);
  s = fx_value_to_repr (&dv);
  g_assert_cmpstr (s, ==, "{'y': 5, 'z': 3, 'x': 4}");
  g_free (s);
  key = fx_value_str ("z");
  got = fx_dict_get (dv.dict, &key);
  g_assert_nonnull (got);
  g_assert_cmpint (got->i, ==, 3);
  fx_value_clear (&key);
  key = fx_value_str ("w");
  g_assert_null (fx_dict_get (dv.dict, &key));
  fx_value_clear (&key);
  fx_value_clear (&dv);
}

/* fx_dict_find's positions: an entry read through one sees values replaced since; any
 * change of keys, and the compaction an iteration does after a removal (entries move),
 * changes fx_dict_keys_version, so a kept position is never read once stale. */
static void
test_dict_positions (void)
{
  g_autoptr (FxDict) d = fx_dict_new ();
  FxValue a = fx_value_str ("a"), b = fx_value_str ("b"), c = fx_value_str ("c");
  fx_dict_set (d, fx_value_copy (&a), fx_value_int (1));
  fx_dict_set (d, fx_value_copy (&b), fx_value_int (2));
  fx_dict_set (d, fx_value_copy (&c), fx_value_int (3));
  gint64 pc = fx_dict_find (d, &c);
  guint64 version = fx_dict_keys_version (d);
  g_assert_cmpint (pc, >=, 0);
  g_assert_cmpint (fx_dict_entry_value (d, pc)->i, ==, 3);
  g_assert_cmpint (fx_dict_find (d, &(FxValue) { .kind = FX_VALUE_INT, .i = 7 }), ==, -1);

  /* a value replaced: same keys, same position, the new value */
  fx_dict_set (d, fx_value_copy (&c), fx_value_int (30));
  g_assert_cmpuint (fx_dict_keys_version (d), ==, version);
  g_assert_cmpint (fx_dict_entry_value (d, pc)->i, ==, 30);

  /* a removal changes the version; then iterating compacts the entries (c moves down)
   * and changes it again */
  g_assert_true (fx_dict_remove (d, &a));
  guint64 after_remove = fx_dict_keys_version (d);
  g_assert_cmpuint (after_remove, !=, version);
  gint64 pc2 = fx_dict_find (d, &c);
  g_assert_cmpint (pc2, ==, pc);   /* the hole is still there */
  const FxValue *k, *v;
  g_assert_true (fx_dict_entry (d, 0, &k, &v));
  g_assert_cmpstr (k->s->data, ==, "b");
  g_assert_cmpuint (fx_dict_keys_version (d), !=, after_remove);
  gint64 pc3 = fx_dict_find (d, &c);
  g_assert_cmpint (pc3, !=, pc2);
  g_assert_cmpint (fx_dict_entry_value (d, pc3)->i, ==, 30);

  /* an added key changes it too */
  guint64 before_add = fx_dict_keys_version (d);
  fx_dict_set (d, fx_value_copy (&a), fx_value_int (10));
  g_assert_cmpuint (fx_dict_keys_version (d), !=, before_add);
  g_assert_cmpint (fx_dict_entry_value (d, fx_dict_find (d, &a))->i, ==, 10);
  fx_value_clear (&a);
  fx_value_clear (&b);
  fx_value_clear (&c);
}

static void
test_dict_many (void)
{
  FxDict *d = fx_dict_new ();
  const int n = 10000;
  const FxValue *k, *v;
  FxValue key;
  guint i;

  for (int j = 0; j < n; j++)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "k%d", j);
      fx_dict_set (d, j % 2 ? fx_value_int (j) : fx_value_str (buf), fx_value_int (j * 10));
    }
  g_assert_cmpuint (fx_dict_len (d), ==, (guint) n);
  /* remove every key divisible by 3 */
  for (int j = 0; j < n; j += 3)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "k%d", j);
      key = j % 2 ? fx_value_int (j) : fx_value_str (buf);
      g_assert_true (fx_dict_remove (d, &key));
      fx_value_clear (&key);
    }
  g_assert_cmpuint (fx_dict_len (d), ==, (guint) (n - (n + 2) / 3));
  /* lookups: float keys find int keys */
  for (int j = 1; j < n; j += 2)
    {
      FxValue *got;
      key = fx_value_float (j);
      got = fx_dict_get (d, &key);
      if (j % 3 == 0)
        g_assert_null (got);
      else
        {
          g_assert_nonnull (got);
          g_assert_cmpint (got->i, ==, j * 10);
        }
    }
  /* iteration keeps insertion order */
  {
    int expect = 0;
    for (i = 0; fx_dict_entry (d, i, &k, &v); i++)
      {
        while (expect % 3 == 0)
          expect++;
        g_assert_cmpint (v->i, ==, expect * 10);
        expect++;
      }
    g_assert_cmpuint (i, ==, fx_dict_len (d));
  }
  /* remove everything, interleaved with re-inserts at the end */
  for (int j = 0; j < n; j++)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "k%d", j);
      key = j % 2 ? fx_value_int (j) : fx_value_str (buf);
      g_assert_cmpint (fx_dict_remove (d, &key), ==, j % 3 != 0);
      fx_value_clear (&key);
      if (j % 100 == 0)
        fx_dict_set (d, fx_value_float (0.5 + j), fx_value_int (j));
    }
  g_assert_cmpuint (fx_dict_len (d), ==, 100);
  for (i = 0; fx_dict_entry (d, i, &k, &v); i++)
    {
      g_assert_cmpint (k->kind, ==, FX_VALUE_FLOAT);
      g_assert_cmpint (v->i, ==, (int64_t) i * 100);
    }
  fx_dict_unref (d);
}

/* Random operations against a plain array model (O(n) per op, small n). */
static void
test_dict_random_model (void)
{
  FxDict *d = fx_dict_new ();
  GArray *model_k = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *model_v = g_array_new (FALSE, FALSE, sizeof (int));
  GRand *rand = g_rand_new_with_seed (42);

  for (int op = 0; op < 20000; op++)
    {
      int key = g_rand_int_range (rand, 0, 300);
      int what = g_rand_int_range (rand, 0, 3);
      guint pos;
      FxValue kv = fx_value_int (key);
      for (pos = 0; pos < model_k->len; pos++)
        if (g_array_index (model_k, int, pos) == key)
          break;
      if (what < 2)
        {
          fx_dict_set (d, fx_value_int (key), fx_value_int (op));
          if (pos < model_k->len)
            g_array_index (model_v, int, pos) = op;
          else
            {
              g_array_append_val (model_k, key);
              g_array_append_val (model_v, op);
            }
        }
      else
        {
          g_assert_cmpint (fx_dict_remove (d, &kv), ==, pos < model_k->len);
          if (pos < model_k->len)
            {
              g_array_remove_index (model_k, pos);
              g_array_remove_index (model_v, pos);
            }
        }
      if (op % 997 == 0)
        {
          const FxValue *k, *v;
          guint i;
          for (i = 0; fx_dict_entry (d, i, &k, &v); i++)
            {
              g_assert_cmpint (k->i, ==, g_array_index (model_k, int, i));
              g_assert_cmpint (v->i, ==, g_array_index (model_v, int, i));
            }
          g_assert_cmpuint (i, ==, model_k->len);
        }
      g_assert_cmpuint (fx_dict_len (d), ==, model_k->len);
    }
  g_rand_free (rand);
  g_array_free (model_k, TRUE);
  g_array_free (model_v, TRUE);
  fx_dict_unref (d);
}

/* ------------------------------------------------------------------ objects */

typedef struct {
  FxObject parent;
  int value;
} TestObj;

static int finalized;

static void test_obj_finalize (FxObject *obj) { finalized++; g_free (obj); }
static void test_obj_repr (const FxObject *obj, GString *out)
{
  g_string_append_printf (out, "TestObj(%d)", ((const TestObj *) obj)->value);
}
static guint test_obj_hash (const FxObject *obj) { return (guint) ((const TestObj *) obj)->value; }
static gboolean test_obj_equal (const FxObject *a, const FxObject *b)
{
  return ((const TestObj *) a)->value == ((const TestObj *) b)->value;
}

static const FxObjectClass test_obj_class = {
  "TestObj", test_obj_finalize, test_obj_repr, test_obj_hash, test_obj_equal
};
static const FxObjectClass plain_class = { "Plain", test_obj_finalize, NULL, NULL, NULL };

static FxObject *
test_obj_new (const FxObjectClass *klass, int value)
{
  TestObj *o = g_new0 (TestObj, 1);
  fx_object_init (&o->parent, klass);
  o->value = value;
  return &o->parent;
}

static void
test_objects (void)
{
  FxValue a = fx_value_take_object (test_obj_new (&test_obj_class, 7));
  FxValue b = fx_value_take_object (test_obj_new (&test_obj_class, 7));
  FxValue p = fx_value_take_object (test_obj_new (&plain_class, 7));
  FxValue q = fx_value_take_object (test_obj_new (&plain_class, 7));
  FxValue c = fx_value_copy (&a);
  FxDict *d = fx_dict_new ();
  char *s;

  finalized = 0;
  g_assert_true (fx_value_equal (&a, &b));
  g_assert_cmpuint (fx_value_hash (&a), ==, fx_value_hash (&b));
  g_assert_false (fx_value_equal (&p, &q));
  g_assert_true (fx_value_equal (&p, &p));
  g_assert_false (fx_value_equal (&a, &p));
  s = fx_value_to_repr (&a);
  g_assert_cmpstr (s, ==, "TestObj(7)");
  g_free (s);
  s = fx_value_to_repr (&p);
  g_assert_true (g_str_has_prefix (s, "<Plain object at "));
  g_free (s);
  fx_dict_set (d, fx_value_copy (&a), fx_value_int (1));
  g_assert_nonnull (fx_dict_get (d, &b));
  g_assert_null (fx_dict_get (d, &p));
  fx_dict_unref (d);
  fx_value_clear (&a);
  g_assert_cmpint (finalized, ==, 0);   /* c still holds it */
  fx_value_clear (&c);
  fx_value_clear (&b);
  fx_value_clear (&p);
  fx_value_clear (&q);
  g_assert_cmpint (finalized, ==, 4);
}

static void
test_copy_clear (void)
{
  FxValue t = TUPLE (fx_value_str ("a"), LIST (fx_value_int (1)));
  FxValue c = fx_value_copy (&t);
  g_assert_true (c.seq == t.seq);
  fx_value_clear (&t);
  g_assert_cmpint (t.kind, ==, FX_VALUE_NONE);
  g_assert_cmpstr (c.seq->items[0].s->data, ==, "a");
  fx_value_clear (&c);
  fx_value_clear (&c);   /* clearing None is fine */
  {
    FxSeq *seq = fx_seq_new (3);
    g_assert_cmpint (seq->items[2].kind, ==, FX_VALUE_NONE);
    for (int i = 0; i < 100; i++)
      fx_seq_append (seq, fx_value_int (i));
    g_assert_cmpuint (seq->len, ==, 103);
    g_assert_cmpint (seq->items[102].i, ==, 99);
    fx_seq_unref (seq);
  }
}

/* l = []; l.append(l) -> '[[...]]';  d = {}; d['a'] = d -> "{'a': {...}}" */
static void
test_cycles (void)
{
  FxSeq *l = fx_seq_new (0);
  FxDict *d = fx_dict_new ();
  FxValue lv = fx_value_take_list (l), dv = fx_value_take_dict (d), key = fx_value_str ("a");
  FxValue *deep = NULL;
  char *s;

  fx_seq_append (l, fx_value_copy (&lv));
  s = fx_value_to_repr (&lv);
  g_assert_cmpstr (s, ==, "[[...]]");
  g_free (s);
  g_assert_true (fx_value_equal (&lv, &lv));
  (void) fx_value_hash (&lv);   /* terminates */
  fx_value_clear (&l->items[0]); /* break the cycle */
  fx_value_clear (&lv);

  fx_dict_set (d, fx_value_copy (&key), fx_value_copy (&dv));
  s = fx_value_to_repr (&dv);
  g_assert_cmpstr (s, ==, "{'a': {...}}");
  g_free (s);
  g_assert_true (fx_dict_remove (d, &key));
  fx_value_clear (&key);
  fx_value_clear (&dv);

  /* very deep nesting neither overflows the stack in repr nor in equal */
  {
    FxValue a = fx_value_int (0), b = fx_value_int (0);
    for (int i = 0; i < 5000; i++)
      {
        FxSeq *sa = fx_seq_new (1), *sb = fx_seq_new (1);
        sa->items[0] = a;
        sb->items[0] = b;
        a = fx_value_take_list (sa);
        b = fx_value_take_list (sb);
      }
    s = fx_value_to_repr (&a);
    g_assert_true (g_str_has_prefix (s, "[[[["));
    g_free (s);
    (void) fx_value_equal (&a, &b);
    (void) fx_value_hash (&a);
    /* unref iteratively from the outside would still recurse; peel off by hand */
    deep = &a;
    while (deep->kind == FX_VALUE_LIST)
      {
        FxValue inner = deep->seq->items[0];
        deep->seq->items[0] = fx_value_none ();
        fx_value_clear (deep);
        *deep = inner;
      }
    deep = &b;
    while (deep->kind == FX_VALUE_LIST)
      {
        FxValue inner = deep->seq->items[0];
        deep->seq->items[0] = fx_value_none ();
        fx_value_clear (deep);
        *deep = inner;
      }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/value/repr/float", test_float_repr);
  g_test_add_func ("/value/repr/str", test_str);
  g_test_add_func ("/value/repr/containers", test_container_repr);
  g_test_add_func ("/value/repr/other", test_other_repr);
  g_test_add_func ("/value/equal-hash", test_equal_hash);
  g_test_add_func ("/value/dict/python-semantics", test_dict_python_semantics);
  g_test_add_func ("/value/dict/many", test_dict_many);
  g_test_add_func ("/value/dict/positions", test_dict_positions);
  g_test_add_func ("/value/dict/random-model", test_dict_random_model);
  g_test_add_func ("/value/objects", test_objects);
  g_test_add_func ("/value/copy-clear", test_copy_clear);
  g_test_add_func ("/value/cycles", test_cycles);
  return g_test_run ();
}
