/** `clients[].program`: what one arrival submits, and how its requests depend on each other. */
import { z } from 'zod';
import { int } from './fields';
import { seconds, tokenLength } from './lengths';
import { SCENARIO_LIMITS } from './limits';

const MAX = SCENARIO_LIMITS.maxTokens;

const sharedPrefix = (what: string) =>
  int('shared_prefix_tokens', 0, MAX)
    .default(0)
    .meta({
      description: `${what} Identical for all of this client's requests (and for every client in the same prefix_group); 0 = none (default).`,
    });

/**
 * `max_new_tokens`: the output cap each request of the program sends (SGLang's sampling parameter);
 * the scheduler reserves KV for it, and a longer drawn output is cut at it.
 */
const maxNewTokens = () =>
  int('max_new_tokens', 1, MAX).optional().meta({
    description:
      'Output cap every request of this program sends (SGLang max_new_tokens): the worker reserves KV room for it at admission, and a longer output stops at it. Default: the largest value the output length can take (its max).',
  });

const library = () =>
  int('documents', 0, 1_000_000).default(0).meta({
    description:
      'Size of the document library the program draws from: 0 (default) = a fresh document per arrival; N > 0 = one of N documents, uniformly, so documents are reused (and shared with every client in the same prefix_group).',
  });

const single = z
  .strictObject({
    type: z.literal('single').meta({ description: 'One request per arrival.' }),
    prompt_tokens: tokenLength('Prompt length including the shared prefix (default 512).').default(512),
    output_tokens: tokenLength('Output length (default 128).').default(128),
    shared_prefix_tokens: sharedPrefix('A system prompt at the start of every prompt, tokens.'),
    max_new_tokens: maxNewTokens(),
  })
  .meta({ description: 'Independent requests, optionally behind a shared system prompt.' });

const multiTurn = z
  .strictObject({
    type: z.literal('multi-turn').meta({
      description:
        'A conversation: each turn’s prompt is the previous turn’s full context (prompt and reply) plus new tokens.',
    }),
    turns: int('turns', 1, 1000).default(4).meta({ description: 'Turns per conversation (default 4).' }),
    prompt_tokens: tokenLength('New user tokens per turn (default 64; Chatbot Arena averages ~56).').default(
      64,
    ),
    output_tokens: tokenLength('Reply length per turn (default 142, the Chatbot Arena average).').default(
      142,
    ),
    think_time_s: seconds(
      'Pause between a reply completing and the next turn’s submission (default 2).',
    ).default(2),
    shared_prefix_tokens: sharedPrefix('A system prompt before the first turn, tokens.'),
    max_new_tokens: maxNewTokens(),
  })
  .meta({ description: 'Multi-turn chat: the next turn waits for the previous reply plus think time.' });

const treeOfThought = z
  .strictObject({
    type: z.literal('tree-of-thought').meta({
      description:
        'Tree of Thoughts: `branching` first thoughts over the question; each node’s children extend its full context and are submitted when it completes. Requests per tree = Σ_{d=1..depth} branching^d (depth 4: 30 with 2 branches, 340 with 4).',
    }),
    depth: int('depth', 1, 12)
      .default(4)
      .meta({ description: 'Levels of thoughts (default 4, the DLPM paper’s tree height).' }),
    branching: int('branching', 1, 64).default(2).meta({
      description: 'Children of every node (default 2; the paper’s S1 misbehaving client uses 4).',
    }),
    question_tokens: tokenLength(
      'Question length, tokens (default 300; S2 in the paper: 10× longer).',
    ).default(300),
    thought_tokens: tokenLength('Output of every inner node (a thought), tokens (default 128).').default(128),
    answer_tokens: tokenLength('Output of every leaf (an answer), tokens (default 256).').default(256),
    step_tokens: int('step_tokens', 0, MAX).default(16).meta({
      description:
        'Instruction tokens each child appends after its parent’s context (distinct per child; default 16).',
    }),
    shared_prefix_tokens: sharedPrefix('An instruction preamble before every question, tokens.'),
    max_new_tokens: maxNewTokens(),
  })
  .meta({ description: 'Tree of Thoughts program (DLPM paper, GSM8K).' });

const judge = z
  .strictObject({
    type: z.literal('judge').meta({
      description:
        'LLM-as-a-judge (branch-solve-merge): `dimensions` branch requests over one article, then a merge request once all branches finish.',
    }),
    dimensions: int('dimensions', 1, 1024).default(2).meta({
      description: 'Branches (evaluation dimensions) per article (default 2; the paper’s S1 client uses 16).',
    }),
    article_tokens: tokenLength('Article length, tokens (default 2400).').default(2400),
    extra_prefix_tokens: int('extra_prefix_tokens', 0, MAX).default(0).meta({
      description:
        'Tokens placed before every article (the same for all of this client’s articles): the paper’s S2 pattern uses 600. Default 0.',
    }),
    instruction_tokens: int('instruction_tokens', 0, MAX)
      .default(32)
      .meta({ description: 'Per-dimension instruction after the article, tokens (default 32).' }),
    output_tokens: tokenLength('Output of every branch, tokens (default 256).').default(256),
    merge_output_tokens: tokenLength('Output of the merge request, tokens (default 256).').default(256),
    documents: library(),
    max_new_tokens: maxNewTokens(),
  })
  .meta({ description: 'LLM-as-a-judge program (DLPM paper).' });

const longQa = z
  .strictObject({
    type: z.literal('long-qa').meta({
      description:
        'Long-context QA: one long document per arrival and `questions` short questions over it, all submitted at the arrival; each prompt = document + question.',
    }),
    document_tokens: tokenLength('Document length, tokens (default 20000; LooGLE averages ~21k).').default(
      20000,
    ),
    questions: int('questions', 1, 10_000)
      .default(8)
      .meta({ description: 'Questions per document (default 8).' }),
    question_tokens: tokenLength('Question length, tokens (default 32).').default(32),
    output_tokens: tokenLength('Answer length, tokens (default 15, the LooGLE average).').default(15),
    documents: library(),
    max_new_tokens: maxNewTokens(),
  })
  .meta({ description: 'Long-context QA program (DLPM paper, LooGLE).' });

export const programSchema = z
  .discriminatedUnion('type', [single, multiTurn, treeOfThought, judge, longQa], {
    error: "type must be one of 'single', 'multi-turn', 'tree-of-thought', 'judge', 'long-qa'",
  })
  .meta({
    description: 'What one arrival submits: single | multi-turn | tree-of-thought | judge | long-qa.',
  });

export type ProgramSpec = z.output<typeof programSchema>;
export type ProgramType = ProgramSpec['type'];
