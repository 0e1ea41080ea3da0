// Imports every resource file and builds the schema.
import { builder } from './builder';
import './scalars';
import './apiKeys';
import './organizations';
import './brands';
import './campaigns';

builder.queryType({});
builder.mutationType({});

export const schema = builder.toSchema({ sortSchema: false });
