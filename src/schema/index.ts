// Imports every resource file and builds the schema.
import { builder } from './builder';
import './scalars';
import './apiKeys';
import './organizations';
import './brands';
import './campaigns';
// affiliate: brands and channels
import './channels';
import './affiliateBrands';
// affiliate: campaigns
// affiliate: orders and products
import './orders';
import './products';
// affiliate: shortener
import './shortUrls';

builder.queryType({});
builder.mutationType({});

export const schema = builder.toSchema({ sortSchema: false });
