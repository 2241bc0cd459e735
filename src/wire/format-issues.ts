import { z } from "zod";

/** A readable, multi-line description of a zod failure, for error messages. */
export function formatIssues(error: z.ZodError): string {
  return z.prettifyError(error);
}
