from collections import Counter


class SimpleTokenizer:
    SPECIAL = ["<pad>", "<unk>", "<bos>", "<eos>"]

    def __init__(self, lowercase=True):
        self.lowercase = lowercase
        self.vocab = {tok: i for i, tok in enumerate(self.SPECIAL)}
        self.inverse = list(self.SPECIAL)

    def split(self, text):
        if self.lowercase:
            text = text.lower()
        tokens, word = [], ""
        for ch in text:
            if ch.isalnum():
                word += ch
                continue
            if word:
                tokens.append(word)
                word = ""
            if not ch.isspace():
                tokens.append(ch)
        if word:
            tokens.append(word)
        return tokens

    def fit(self, corpus, min_count=1):
        counts = Counter(tok for line in corpus for tok in self.split(line))
        for tok, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            if c >= min_count and tok not in self.vocab:
                self.vocab[tok] = len(self.inverse)
                self.inverse.append(tok)
        return counts

    def encode(self, text, add_special=True):
        ids = [self.vocab.get(t, self.vocab["<unk>"]) for t in self.split(text)]
        return [2, *ids, 3] if add_special else ids

    def decode(self, ids):
        words = [self.inverse[i] for i in ids if i >= len(self.SPECIAL) or i == 1]
        out = ""
        for w in words:
            if out and w.isalnum():
                out += " "
            out += w
        return out

    def pad(self, batch, length=None):
        length = length or max(map(len, batch))
        return [seq[:length] + [0] * (length - len(seq)) for seq in batch]

    def __len__(self):
        return len(self.inverse)

    def __repr__(self):
        return f"{type(self).__name__}(vocab_size={len(self)}, lowercase={self.lowercase})"


corpus = [
    "The cat sat on the mat.",
    "The dog sat on the log!",
    "Cats and dogs: friends, or foes?",
]
tok = SimpleTokenizer()
counts = tok.fit(corpus, min_count=1)
print(tok)
print(counts.most_common(3))
enc = [tok.encode(s) for s in corpus]
for row in tok.pad(enc):
    print(" ".join(f"{i:2d}" for i in row))
print(tok.decode(tok.encode("the cat and the bird sat")))
print(tok.split("Hello, World! 42 times..."))
print("|".join(w.capitalize() for w in "snake_case_to_title".split("_")))
print("{:-^30}".format(" done "))
