/** Embeddings: the embedded default embedder and batching for any LangChain `Embeddings`. */
export { HashEmbeddings, HASH_EMBEDDINGS_DEFAULTS, type HashEmbeddingsOptions } from "./hash-embeddings.js";
export { embedInBatches, EMBED_IN_BATCHES_DEFAULTS, type EmbedInBatchesOptions } from "./embed-in-batches.js";
export { textTerms, textRuns, type TextRun, type TermOptions } from "./text-terms.js";
