// Rewrites the "National BBAN conventions" table in README.md from src/domain/iban/conventions/ (the table the
// generator uses). Run after changing a convention: node --import tsx scripts/render-bban-conventions.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { conventionsMarkdown } from '../src/domain/iban/conventions/markdown.js';

const path = new URL('../README.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const header = '| Country | BBAN | Conventions (BBAN positions, 1-based; basis) | Sources |';
const start = readme.indexOf(header);
if (start < 0) throw new Error('README.md has no BBAN conventions table');
const end = readme.indexOf('\n\n', start);
writeFileSync(path, readme.slice(0, start) + conventionsMarkdown() + readme.slice(end));
