// Imports every resource file and builds the schema.
import { builder } from './builder';
import './scalars';
import './brands';
import './campaigns';
import './channels';
import './affiliateBrands';
import './orders';
import './products';
import './shortUrls';
import './reports/performance';
import '../modules/keys/schema';
import '../modules/webhooks/schema';

builder.queryType({});
builder.mutationType({});

export const schema = builder.toSchema({ sortSchema: false });
