// dump-audit's shipped cases: one green dump and one red dump per rule, each with its defect's line.
import type { SelfTestCase } from '../../core/types.js';
import { RULES } from './audit.js';

const PATH = 'app/src/androidTest/assets/window_dump.xml';

/** One node line in the dumper's attribute order. */
function node(indent: number, attrs: { cls: string; bounds: string; text?: string; id?: string; desc?: string; clickable?: boolean }, close = true): string {
  const c = attrs.clickable === true ? 'true' : 'false';
  return `${'  '.repeat(indent)}<node index="0" text="${attrs.text ?? ''}" resource-id="${attrs.id ?? ''}" class="${attrs.cls}" package="com.example.notes" content-desc="${attrs.desc ?? ''}" checkable="false" checked="false" clickable="${c}" enabled="true" focusable="${c}" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="${attrs.bounds}"${close ? ' />' : '>'}`;
}

/** A whole dump: the window's root FrameLayout around `children` (line 3 is the root; children start at line 4). */
function dump(children: string[]): string {
  return [
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
    '<hierarchy rotation="0">',
    node(1, { cls: 'android.widget.FrameLayout', bounds: '[0,0][1080,1920]' }, false),
    ...children,
    '  </node>',
    '</hierarchy>',
    '',
  ].join('\n');
}

const save = node(2, { cls: 'android.widget.Button', bounds: '[800,84][1059,189]', text: 'Save', id: 'com.example.notes:id/save', clickable: true });
const back = node(2, { cls: 'android.widget.ImageButton', bounds: '[21,84][147,189]', desc: 'Navigate up', clickable: true });

export function dumpAuditSelfTest(): SelfTestCase[] {
  return [
    { name: 'labelled controls pass', kind: 'green', files: { [PATH]: dump([back, save]) } },
    {
      name: 'a clickable ImageButton with no label is unlabeled-control',
      kind: 'red',
      files: { [PATH]: dump([back, node(2, { cls: 'android.widget.ImageButton', bounds: '[933,84][1059,189]', clickable: true })]) },
      expect: { file: PATH, line: 5, rule: RULES.unlabeled },
    },
    {
      name: 'two buttons labelled "Save" are ambiguous-label',
      kind: 'red',
      files: { [PATH]: dump([save, node(2, { cls: 'android.widget.Button', bounds: '[500,84][780,189]', text: 'Save', clickable: true })]) },
      expect: { file: PATH, line: 5, rule: RULES.ambiguous },
    },
    {
      name: 'a clickable node of zero area is zero-area-control',
      kind: 'red',
      files: { [PATH]: dump([back, node(2, { cls: 'android.view.View', bounds: '[0,0][0,0]', desc: 'Hidden action', clickable: true })]) },
      expect: { file: PATH, line: 5, rule: RULES.zeroArea },
    },
    {
      name: 'a torn dump is unparsable-dump',
      kind: 'red',
      files: { [PATH]: dump([back, save]).slice(0, 700) },
      expect: { file: PATH, line: 4, rule: RULES.unparsable },
    },
  ];
}
