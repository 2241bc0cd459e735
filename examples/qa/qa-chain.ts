import type { DocumentInterface } from "@langchain/core/documents";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { RunnableLambda, RunnablePassthrough, RunnableSequence } from "@langchain/core/runnables";
import type { BaseRetriever } from "@langchain/core/retrievers";
import { formatCitations } from "../../src/retrieve/format-citations.js";
import type { Citation } from "../../src/retrieve/citation.js";

/** What the chain returns. */
export interface QaAnswer {
  question: string;
  /** The answer, citing sources as [1], [2]. */
  answer: string;
  /** The numbered sources, Markdown. */
  sources: string;
  docs: DocumentInterface[];
  /** `model` when a chat model wrote the answer, `extractive` when it is quoted. */
  mode: "model" | "extractive";
}

const PROMPT = ChatPromptTemplate.fromMessages([
  [
    "system",
    "Answer the question using only the numbered sources. Cite every claim with the source number in brackets, like [1] or [2]. If the sources do not answer the question, say so. Answer in the language of the question.",
  ],
  ["human", "Sources:\n{context}\n\nQuestion: {question}"],
]);

/** The sources as the model sees them: `[n] (file, p. x) text`. */
export function numberedContext(docs: readonly DocumentInterface[]): string {
  return docs
    .map((d, i) => {
      const c = (d.metadata as { citation?: Citation }).citation;
      const where = c ? `${c.filename ?? c.sourceId}, p. ${c.pages.join(", ")}` : "unknown source";
      return `[${i + 1}] (${where})\n${d.pageContent}`;
    })
    .join("\n\n");
}

/**
 * The offline answer: the best-matching quote of each source that matches the question
 * at all, each followed by its number. No model, no network: it runs anywhere.
 */
export function extractiveAnswer(docs: readonly DocumentInterface[], maxQuotes = 2): string {
  const quotes: string[] = [];
  docs.forEach((d, i) => {
    const c = (d.metadata as { citation?: Citation }).citation;
    if (c && c.quote.text && c.quote.score > 0 && quotes.length < maxQuotes) quotes.push(`${c.quote.text} [${i + 1}]`);
  });
  return quotes.length > 0 ? quotes.join(" ") : "The documents do not seem to answer this question.";
}

/**
 * A question-answering chain: retrieve → (chat model | extractive) → answer with [n]
 * citations and the numbered source list.
 */
export function buildQaChain(retriever: BaseRetriever, model?: BaseChatModel): RunnableSequence<string, QaAnswer> {
  const answerWithModel = model ? PROMPT.pipe(model).pipe(new StringOutputParser()) : undefined;
  return RunnableSequence.from<string, QaAnswer>([
    { question: new RunnablePassthrough<string>(), docs: retriever },
    RunnableLambda.from(async ({ question, docs }: { question: string; docs: DocumentInterface[] }): Promise<QaAnswer> => {
      const sources = formatCitations(docs);
      if (answerWithModel && docs.length > 0) {
        const answer = await answerWithModel.invoke({ question, context: numberedContext(docs) });
        return { question, answer, sources, docs, mode: "model" };
      }
      return { question, answer: extractiveAnswer(docs), sources, docs, mode: "extractive" };
    }),
  ]);
}

/**
 * A chat model when one is configured: `OPENAI_API_KEY` set and `@langchain/openai`
 * installed (model from `OPENAI_MODEL`, default `gpt-4o-mini`). Otherwise undefined.
 */
export async function loadChatModel(): Promise<BaseChatModel | undefined> {
  if (!process.env.OPENAI_API_KEY) return undefined;
  // A variable specifier: the example must typecheck and run without the package.
  const name = "@langchain/openai";
  try {
    const mod = (await import(name)) as { ChatOpenAI: new (fields: Record<string, unknown>) => BaseChatModel };
    return new mod.ChatOpenAI({ model: process.env.OPENAI_MODEL ?? "gpt-4o-mini", temperature: 0 });
  } catch {
    console.warn("OPENAI_API_KEY is set but @langchain/openai is not installed (npm i @langchain/openai); answering extractively.");
    return undefined;
  }
}
