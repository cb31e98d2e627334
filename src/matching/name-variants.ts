/**
 * Given names that stand for one another: hypocorisms (Bill = William, Bibi = Benjamin) and the
 * same name across languages (John = Juan = Johann = Ivan, Vladimir = Volodymyr). Spelling
 * variants (Mohammed / Muhammad) are left to the part comparison; this table holds only pairs no
 * string measure would find. Source: general onomastics (English, Romance, Germanic, Slavic and
 * Hebrew/Arabic cognates of common given names), kept small on purpose.
 */
const GROUPS = `
john jon johnny jack juan johann johannes jean giovanni gianni ivan ioannis joao jan sean ian evan hans yahya
william bill billy will willy wilhelm guillermo guillaume guglielmo vilhelm
robert bob bobby rob robbie roberto
richard rick ricky dick ricardo riccardo
james jim jimmy jamie jaime diego giacomo
joseph joe joey jose giuseppe josef iosif osip yusuf youssef yosef pepe
michael mike mikey mick miguel michel michele mikhail misha mikhail mihail
peter pete pedro pierre pietro pyotr piotr petr
paul pablo paolo pavel pavlo
alexander alex alec sandy alejandro alessandro aleksandr alexandre oleksandr sasha iskander iskandar
nicholas nick nicky nicolas nicola nikolai nikolay mykola klaus
stephen steven steve esteban stefan stephane stefano stepan
george jorge giorgio georgy georgiy yuri yury jurgen
andrew andy andres andreas andre andrei andriy
anthony tony antonio anton antoine
edward ed eddie ted teddy eduardo edouard
theodore ted teddy teodoro fyodor fedor
benjamin ben benny bibi binyamin
charles charlie chuck carlos carl karl carlo
henry harry hank enrique heinrich henri enrico
francis frank frankie francisco francois franz francesco paco pancho
thomas tom tommy tomas tommaso foma
daniel dan danny
david dave davey davide
samuel sam sammy
matthew matt mateo matteo matthias matvei
jacob jake jakob yakov yaakov yaqub jacques
lawrence larry lorenzo laurent
patrick pat paddy patricio
timothy tim timmy
gregory greg grigory grigori
vladimir volodymyr wladimir vova volodya uladzimir
dmitry dmitri dima dmytro
sergey sergei serhiy sergio serge
mikhail misha
yevgeny evgeny eugene zhenya yevhen
elizabeth liz lizzie beth betty elisabeth isabel yelizaveta elisabetta
margaret maggie meg peggy margarita marguerite margherita
catherine kate katie kathy cathy katherine ekaterina yekaterina katya catarina caterina
mary maria marie miriam maryam mariam masha
susan sue susie susanna suzanne
jennifer jen jenny
rebecca becky
deborah debbie deb
patricia patty pat tricia
barbara barb
anne ann anna annie hannah anya
helen helena elena yelena ellen
joan jeanne juana giovanna
olga olha
natalia natalya natasha nataliya
abraham avraham ibrahim
moses moshe musa
solomon shlomo sulayman suleiman
david dawood dawud daud
`;

const groupsOf = new Map<string, number[]>();
GROUPS.trim()
  .split('\n')
  .forEach((line, g) => {
    for (const name of line.trim().split(/\s+/)) {
      const list = groupsOf.get(name) ?? [];
      list.push(g);
      groupsOf.set(name, list);
    }
  });

/** True when the two (different) given names stand for one another. */
export function sameGivenName(a: string, b: string): boolean {
  const groupsA = groupsOf.get(a);
  if (!groupsA) return false;
  const groupsB = groupsOf.get(b);
  if (!groupsB) return false;
  for (const group of groupsA) if (groupsB.includes(group)) return true;
  return false;
}
