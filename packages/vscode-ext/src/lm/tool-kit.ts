import * as vscode from 'vscode';
import { toolInputChecker } from './tool-input';

/** A language model tool with its name (as contributed in package.json). */
export interface NamedTool<T> extends vscode.LanguageModelTool<T> {
  readonly name: string;
}

/** A tool's result as text the model reads. */
export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

interface ContributedTool {
  readonly name: string;
  readonly inputSchema?: object;
}

/**
 * The input checker of the tool `name`, built from the schema package.json contributes for it (the
 * one the model is shown), so the declared schema and the check can never drift apart.
 */
export function checkerFor<T>(packageJSON: unknown, name: string): (input: unknown) => T {
  const tools = (packageJSON as { contributes?: { languageModelTools?: ContributedTool[] } }).contributes
    ?.languageModelTools;
  const schema = tools?.find((t) => t.name === name)?.inputSchema;
  if (!schema) throw new Error(`package.json contributes no input schema for the tool ${name}`);
  return toolInputChecker<T>(name, schema);
}
