package layers

import "fmt"

// bertRows is BERT's encoder with its pooler (Devlin et al., NAACL 2019,
// Sec. 3; the layer shapes of the reference BertModel: a 30,522-token
// WordPiece vocabulary, 512 positions, 2 token types) with hidden size h
// and layers encoder layers, for sequences of seq tokens: one row for the
// embeddings (word, position and token-type tables and their layer norm),
// one per encoder layer (query, key, value and output projections, the
// 4h feed-forward pair and two layer norms: 12h^2 + 13h parameters) and
// one for the pooler. Multiply-accumulates per sequence: 12h^2 per token
// per layer for the projections plus 2 seq^2 h for the attention scores
// and their weighted sum; the embeddings' look-ups cost none, the pooler
// runs on one token.
func bertRows(h, layers, seq int) []row {
	const vocab, positions, types = 30522, 512, 2
	emb := row{name: "embeddings"}
	emb.add(int64((vocab+positions+types)*h), 0)
	emb.add(layerNorm(h))
	rows := []row{emb}
	for i := range layers {
		r := row{name: fmt.Sprintf("encoder.%d", i)}
		for range 4 { // query, key, value, attention output
			r.add(linear(h, h, seq))
		}
		r.add(layerNorm(h))
		r.add(linear(h, 4*h, seq))
		r.add(linear(4*h, h, seq))
		r.add(layerNorm(h))
		r.add(0, 2*float64(seq)*float64(seq)*float64(h))
		rows = append(rows, r)
	}
	pool := row{name: "pooler"}
	pool.add(linear(h, h, 1))
	return append(rows, pool)
}
